import { ListeningHub, type ListenTransport } from './listening-hub';
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { type Endpoint, MODULES, isAllowed, isMutating } from '../../shared/api';
import { CONTRACT_MODULES, readTags, writeTags } from '../../shared/api/contract';
import type { Db } from '../db/connection';
import type { Actor, AuditEntry } from './audit';

/**
 * The live console (issue 21): every committed change is told to the consoles that may read it, on
 * the download centre's event stream. A change is published where it is audited, inside its
 * transaction (`pg_notify`), so it is heard exactly when it commits and never when it rolls back;
 * every instance LISTENs (PostgreSQL) or hears its own PGlite, including the one that made it.
 */

export const CHANGE_CHANNEL = 'record_changes';

/** What a request's changes are about, set by the contract binder around each handler. */
interface ChangeScope {
  /** The endpoint's resource tags (`writes`, else its module): which reads the change makes stale. */
  tags: readonly string[];
  /** A read that audits (a reveal, an export asked for) changes no record. */
  mutating: boolean;
  /** The console (browser tab) that asked, so its own stream can tell its own change. */
  origin: string | null;
}

const scope = new AsyncLocalStorage<ChangeScope>();

export { CONSOLE_HEADER } from '../../shared/api/export-task';

/** The console id a tab sends with its calls and its stream: short and plain, or ignored. */
export const consoleIdOf = (raw: string | string[] | undefined): string | null => {
  const v = Array.isArray(raw) ? raw[0] : raw;
  return v && /^[A-Za-z0-9-]{8,64}$/.test(v) ? v : null;
};

export function runWithChangeScope<T>(endpoint: Endpoint, origin: string | null, run: () => Promise<T>): Promise<T> {
  return scope.run({ tags: writeTags(endpoint), mutating: isMutating(endpoint), origin }, run);
}

/** A change as it travels between instances (the origin never reaches another console). */
export interface ChangeMessage {
  tags: readonly string[];
  /** The record: the audit target's kind and id (`station/12`), when it names one. */
  kind: string | null;
  id: string | null;
  districtId: number | null;
  by: string | null;
  at: string;
  origin: string | null;
}

/**
 * Operations that are nobody else's news: the shell's (signing in and out, one's own password) and
 * the download centre's (an account's own tasks, told to it alone by the task hub).
 */
const PRIVATE_OPERATIONS = new Set(MODULES.filter((m) => m.id === 'shell' || m.id === 'download').flatMap((m) => Object.keys(m.operations)));
const operationTags = new Map(MODULES.flatMap((m) => Object.keys(m.operations).map((op): [string, string] => [op, m.id])));

/** `station/12` → the station 12; `line/5` → the line 5; a login or a code names no record kind. */
function recordOf(target: string | null | undefined): { kind: string | null; id: string | null } {
  const m = target ? /^([a-z][a-z-]*)\/(\d+)$/.exec(target) : null;
  return m ? { kind: m[1]!, id: m[2]! } : { kind: null, id: null };
}

/**
 * Called by `audit` with the change's own transaction: the notification is sent on commit. Outside
 * a request (a timed job) the tags are the module's that declares the operation.
 */
export async function publishChange(db: Db, actor: Actor, entry: AuditEntry, at: Date): Promise<void> {
  // A refusal written to the log (result 0) changed nothing: nobody's list refetches or marks a row for it.
  if (entry.aggregateKey || entry.result === 0 || PRIVATE_OPERATIONS.has(entry.type)) return;
  const ctx = scope.getStore();
  if (ctx && !ctx.mutating) return;
  const tags = ctx?.tags ?? [operationTags.get(entry.type) ?? entry.type];
  const record = entry.record ? { kind: entry.record.kind, id: String(entry.record.id) } : recordOf(entry.target);
  const message: ChangeMessage = { tags, ...record, districtId: entry.targetDistrictId, by: actor.login, at: at.toISOString(), origin: ctx?.origin ?? null };
  await db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${JSON.stringify(message)})`);
}

/** What one console is told: the tags to refetch, the record, who and when, and whether it was this console's own. */
export interface ChangeEvent {
  type: 'change';
  tags: string[];
  kind: string | null;
  id: string | null;
  by: string | null;
  at: string;
  own: boolean;
}

/** Who hears what: an account bound to its district hears of that district's records only. */
export interface ChangeListener {
  userId: number;
  /** Null: the account may open every district (openDistrict) and hears all. */
  districtId: number | null;
  /** The tags of the reads the account may call: a change of nothing it can read is not its news. */
  readable: ReadonlySet<string>;
  consoleId: string | null;
  send(event: ChangeEvent | { type: 'resync' }): void;
}

/** The tags an account may read: those of every read endpoint its permissions pass. */
export function readableTags(grants: Parameters<typeof isAllowed>[1]): Set<string> {
  const tags = new Set<string>();
  for (const m of CONTRACT_MODULES) for (const e of m.endpoints) if (!isMutating(e) && isAllowed(e.permission, grants)) for (const t of readTags(e)) tags.add(t);
  return tags;
}

export type ChangeTransport = ListenTransport;

/** The changes this instance hears, passed to the streams it holds that may hear them. */
export class ChangeHub extends ListeningHub<ChangeMessage> {
  private readonly listeners = new Set<ChangeListener>();

  constructor(transport: ChangeTransport | null, log: (msg: string, err?: unknown) => void) {
    super(transport, log, 'change');
  }

  protected heard(m: ChangeMessage): void {
    this.deliver(m);
  }

  // Changes committed while the connection was down are lost: every console refetches what it shows.
  protected lost(): void {
    for (const l of this.listeners) l.send({ type: 'resync' });
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private deliver(m: ChangeMessage): void {
    for (const l of this.listeners) {
      if (l.districtId !== null && m.districtId !== null && m.districtId !== l.districtId) continue;
      const tags = m.tags.filter((t) => l.readable.has(t));
      if (!tags.length) continue;
      // A record of no district (a 全市 notice, a role group) is shown to district accounts too, so
      // their lists must refetch; who changed it stays out, as the system log keeps such rows from them.
      const by = l.districtId !== null && m.districtId === null ? null : m.by;
      l.send({ type: 'change', tags, kind: m.kind, id: m.id, by, at: m.at, own: m.origin !== null && m.origin === l.consoleId });
    }
  }
}
