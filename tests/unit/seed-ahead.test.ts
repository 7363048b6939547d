import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { createPii } from '../../src/server/lib/pii';
import { PROFILES } from '../../src/server/db/seed/context';
import { type CopyText, isCopyText, toCopyText } from '../../src/server/db/seed/copy-text';
import { planned, startAhead } from '../../src/server/db/seed/ahead';
import { RIDER_COLUMNS, ridersAndCardsPlan } from '../../src/server/modules/rider/seed-plan';
import { SEED_PLANS } from '../../src/server/seed-plans';
import { packageOrdersPlan } from '../../src/server/modules/package-pay/seed-plan';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-worker-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The worker as `npm start` bundles it (launch.mjs). */
async function bundledWorker(): Promise<string> {
  const outfile = path.join(dir, 'seed-worker.mjs');
  await build({ entryPoints: [path.join(ROOT, 'src/server/seed-worker.ts')], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent' });
  return outfile;
}

const key = Buffer.alloc(32, 7);
const pii = createPii(key);
const now = new Date('2026-11-26T02:00:00Z');
const SEALED = new Set(['phone_enc', 'citizen_enc', 'name_enc']);

const textOf = (text: CopyText) => (typeof text.copy === 'string' ? text.copy : new TextDecoder().decode(text.copy));

/** COPY text with each sealed field opened: the same rows sealed twice differ only in their IVs. */
function opened(text: CopyText, columns: readonly string[]): string[] {
  return textOf(text)
    .trimEnd()
    .split('\n')
    .map((line) =>
      line
        .split('\t')
        .map((f, i) => (SEALED.has(columns[i]!) && f !== '\\N' ? pii.decrypt(f) : f))
        .join('\t'),
    );
}

describe('seed plans made ahead on the worker', () => {
  it('lists every plan once', () => {
    const names = SEED_PLANS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain(ridersAndCardsPlan.name);
  });

  it('give the rows the seed makes in place, as COPY text', async () => {
    const worker = await bundledWorker();
    const ctx = { seed: 42, now, profile: PROFILES.small, pii };
    const ahead = startAhead(worker, { seed: 42, now: now.getTime(), profile: 'small', piiKey: key, plans: [ridersAndCardsPlan.name] }, () => undefined);
    try {
      const fromWorker = await planned(ridersAndCardsPlan, { ...ctx, ahead });
      const inPlace = await planned(ridersAndCardsPlan, ctx);
      expect(isCopyText(fromWorker.riders) && isCopyText(fromWorker.cards)).toBe(true);
      expect(Array.isArray(inPlace.riders)).toBe(true);
      const here = { riders: toCopyText(inPlace.riders as never), cards: toCopyText(inPlace.cards as never) };
      expect((fromWorker.riders as CopyText).count).toBe(300);
      expect(opened(fromWorker.riders as CopyText, RIDER_COLUMNS)).toEqual(opened(here.riders, RIDER_COLUMNS));
      // From the worker as bytes, handed over rather than copied.
      expect((fromWorker.cards as CopyText).copy).toBeInstanceOf(Uint8Array);
      expect(textOf(fromWorker.cards as CopyText)).toBe(here.cards.copy);
      // Riders are numbered as loaded, and every card's holder is one of them.
      const riderIds = opened(here.riders, RIDER_COLUMNS).map((l) => Number(l.split('\t')[0]));
      expect(riderIds).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    } finally {
      await ahead.close();
    }
  }, 60_000);

  it('套餐’s plan gives the same orders, rides and refunds from the worker as in place', async () => {
    const worker = await bundledWorker();
    const ctx = { seed: 42, now, profile: PROFILES.small, pii };
    const ahead = startAhead(worker, { seed: 42, now: now.getTime(), profile: 'small', piiKey: key, plans: [packageOrdersPlan.name] }, () => undefined);
    try {
      const fromWorker = await planned(packageOrdersPlan, { ...ctx, ahead });
      const inPlace = await planned(packageOrdersPlan, ctx);
      for (const k of ['orders', 'usages', 'refunds'] as const) {
        expect(isCopyText(fromWorker[k])).toBe(true);
        expect(textOf(fromWorker[k] as CopyText)).toBe(toCopyText(inPlace[k] as never).copy);
      }
      expect((fromWorker.orders as CopyText).count).toBe(30);
    } finally {
      await ahead.close();
    }
  }, 60_000);

  it('a worker that cannot start costs only its head start: the plan is made in place', async () => {
    const logged: string[] = [];
    const ahead = startAhead(path.join(dir, 'no-such-worker.mjs'), { seed: 1, now: now.getTime(), profile: 'small', piiKey: key, plans: [ridersAndCardsPlan.name] }, (msg) => logged.push(msg));
    const made = await planned(ridersAndCardsPlan, { seed: 1, now, profile: PROFILES.small, pii, ahead });
    await ahead.close();
    expect(Array.isArray(made.riders)).toBe(true);
    expect(made.riders).toHaveLength(300);
    expect(logged).toEqual(['seed worker failed; the seed makes its rows itself']);
  });
});
