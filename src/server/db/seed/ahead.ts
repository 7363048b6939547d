import { Worker } from 'node:worker_threads';
import { type Pii, createPii } from '../../lib/pii';
import { type CopyText, type Rows, toCopyText } from './copy-text';
import { PROFILES, type SeedProfile } from './context';
import { type Rng, createStream } from './rng';

/**
 * Seed work that needs no database (rows drawn, personal data sealed, COPY text formatted), made on
 * the other core while the first start unpacks the cluster, migrates and seeds the small tables:
 * the demo's 50,000 riders and 200,000 cards took 3 s of the server's one thread. A plan draws from
 * a stream of its own, so it gives the same rows wherever it runs; without the worker (tests, the
 * dev server, PostgreSQL) the generator makes it in place.
 */

export interface PlanInput {
  /** The plan's own stream: `createStream(SEED, plan name)`. */
  rng: Rng;
  now: Date;
  profile: SeedProfile;
  pii: Pii;
}

/** Named rows to load, made from the input alone; ids it hands out are the ones the load writes. */
export interface SeedPlan<R extends Record<string, Rows>> {
  /** Unique over the seed: `<module id>/<what>`; also its stream's name. */
  name: string;
  make(input: PlanInput): R;
}

/** What a plan made on the worker arrives as: each rows list already COPY text. */
export type Made<R extends Record<string, Rows>> = { [K in keyof R]: Rows | CopyText };

/** The plans being made on the worker. */
export interface Ahead {
  /** The plan's rows when the worker made (or is making) it; undefined otherwise, or when the worker failed. */
  take<R extends Record<string, Rows>>(plan: SeedPlan<R>): Promise<Made<R> | undefined>;
  close(): Promise<void>;
}

/** What the worker is started with: everything a plan's input is made of. */
interface AheadData {
  seed: number;
  now: number;
  profile: SeedProfile['name'];
  piiKey: Uint8Array;
  plans: string[];
}

type Message = { name: string; made: Record<string, CopyText> } | { name: string; error: string };

/**
 * The worker's heap: V8's flags are the process's, and the server's (a 4 MB young generation,
 * decision 95) made the worker collect garbage most of its time while it built 250,000 rows.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 1024 };

/** A plan's rows: from the worker when it made them, else made here from the part's context. */
export async function planned<R extends Record<string, Rows>>(plan: SeedPlan<R>, ctx: { seed: number; now: Date; profile: SeedProfile; pii: Pii; ahead?: Ahead }): Promise<Made<R>> {
  const made = await ctx.ahead?.take(plan);
  return made ?? plan.make({ rng: createStream(ctx.seed, plan.name), now: ctx.now, profile: ctx.profile, pii: ctx.pii });
}

/** Starts the worker (`workerFile`, the bundle's seed-worker.mjs) making the named plans in order. */
export function startAhead(workerFile: string, opts: Omit<AheadData, 'piiKey'> & { piiKey: Buffer }, log: (msg: string, err?: unknown) => void): Ahead {
  const data: AheadData = { ...opts, piiKey: new Uint8Array(opts.piiKey) };
  const worker = new Worker(workerFile, { workerData: data, resourceLimits: WORKER_HEAP });
  const waiting = new Map<string, { resolve: (made: Record<string, CopyText> | undefined) => void; promise: Promise<Record<string, CopyText> | undefined> }>();
  for (const name of opts.plans) {
    let resolve!: (made: Record<string, CopyText> | undefined) => void;
    const promise = new Promise<Record<string, CopyText> | undefined>((r) => (resolve = r));
    waiting.set(name, { resolve, promise });
  }
  // A worker that fails costs the start its head start, never the start: each generator makes its plan in place.
  const giveUp = (err: unknown) => {
    log('seed worker failed; the seed makes its rows itself', err);
    for (const w of waiting.values()) w.resolve(undefined);
  };
  worker.on('message', (m: Message) => {
    if ('error' in m) log(`seed plan ${m.name} failed on the worker`, m.error);
    waiting.get(m.name)?.resolve('made' in m ? m.made : undefined);
  });
  worker.on('error', giveUp);
  worker.on('exit', () => {
    for (const w of waiting.values()) w.resolve(undefined);
  });
  return {
    take: async <R extends Record<string, Rows>>(plan: SeedPlan<R>) => (await waiting.get(plan.name)?.promise) as Made<R> | undefined,
    close: async () => {
      await worker.terminate();
    },
  };
}

/** The worker's side: makes each plan asked for, in order, and posts its rows as COPY text. */
export function runAhead(plans: readonly SeedPlan<Record<string, Rows>>[], data: AheadData, post: (m: Message, transfer: ArrayBuffer[]) => void): void {
  const encoder = new TextEncoder();
  const pii = createPii(Buffer.from(data.piiKey));
  for (const name of data.plans) {
    const plan = plans.find((p) => p.name === name);
    try {
      if (!plan) throw new Error(`no seed plan named ${name}`);
      const rows = plan.make({ rng: createStream(data.seed, name), now: new Date(data.now), profile: PROFILES[data.profile], pii });
      const made: Record<string, CopyText> = {};
      const buffers: ArrayBuffer[] = [];
      for (const [k, v] of Object.entries(rows)) {
        const { copy, count } = toCopyText(v);
        const bytes = encoder.encode(copy);
        buffers.push(bytes.buffer);
        made[k] = { copy: bytes, count };
      }
      post({ name, made }, buffers);
    } catch (err) {
      post({ name, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, []);
    }
  }
}
