import { useEffect, useState } from 'react';
import type { RecordChange } from '../../shared/api/export-task';
import { loadContract } from './contract';
import { ensureFollowingTasks, taskStore } from './export-tasks';
import { createStore, useStore } from './store';

/**
 * The live console (issue 21): changes others commit arrive on the download centre's event stream
 * (`task-stream.ts`). Here they become
 * - one refetch of the reads sharing their resource tags per burst (a bulk action or an import of
 *   hundreds of rows costs each open list one refetch, not hundreds),
 * - a brief mark on the changed rows (`useChangedRows`), and
 * - a notice in an open form of that record (`useRecordChanged`).
 * A tab's own changes (`own`) are neither marked nor refetched here: its own call already refetched.
 */

/** How long a row stays marked as changed by someone else. */
export const MARK_MS = 4_000;
/**
 * A burst of changes is gathered until it pauses this long, and never longer than `GATHER_MAX_MS`
 * after its first change: one refetch per list per burst (or per second of a long one), within the
 * 2 s promised.
 */
const GATHER_MS = 250;
const GATHER_MAX_MS = 1_000;

export interface ChangeMark {
  by: string | null;
  at: string;
}

/** Rows changed by others in the last moments: `kind/id` → who and when. */
const marks = createStore<ReadonlyMap<string, ChangeMark>>(new Map());
const recordKey = (kind: string, id: string | number) => `${kind}/${id}`;

type Revalidator = (stale: ReadonlySet<string> | 'all') => void;
let revalidator: Revalidator | null = null;
let pendingTags = new Set<string>();
let pendingAll = false;
let timer: ReturnType<typeof setTimeout> | null = null;
/** When the burst being gathered began. */
let burstFrom = 0;

const recordListeners = new Set<(change: RecordChange) => void>();

function flush(): void {
  timer = null;
  burstFrom = 0;
  const all = pendingAll;
  const tags = pendingTags;
  pendingAll = false;
  pendingTags = new Set();
  if (!revalidator) return;
  if (all) return revalidator('all');
  // Without the contract (a network blip) the lists stay as they are until their next fetch.
  void loadContract().then(({ endpoints, readTags }) => {
    const stale = new Set(endpoints.filter((e) => readTags(e).some((t) => tags.has(t))).map((e) => e.id));
    if (stale.size) revalidator?.(stale);
  }, () => undefined);
}

function schedule(): void {
  const now = Date.now();
  burstFrom ||= now;
  if (timer) clearTimeout(timer);
  timer = setTimeout(flush, Math.max(0, Math.min(now + GATHER_MS, burstFrom + GATHER_MAX_MS) - now));
}

/** A change heard on the stream. */
export function applyChange(change: RecordChange): void {
  if (change.own) return;
  for (const t of change.tags) pendingTags.add(t);
  schedule();
  for (const l of recordListeners) l(change);
  if (!change.kind || !change.id) return;
  const key = recordKey(change.kind, change.id);
  marks.set((prev) => new Map(prev).set(key, { by: change.by, at: change.at }));
  setTimeout(() => {
    marks.set((prev) => {
      if (prev.get(key)?.at !== change.at) return prev;
      const next = new Map(prev);
      next.delete(key);
      return next;
    });
  }, MARK_MS);
}

/** Changes may have been missed (a reconnect, the server's own): everything shown is refetched. */
export function revalidateAll(): void {
  pendingAll = true;
  schedule();
}

/** The layout's SWR cache refetches for the live console (set inside its SWRConfig). */
export function setRevalidator(r: Revalidator | null): void {
  revalidator = r;
}

/**
 * Something on screen follows records: the event stream is opened (the download centre's; most
 * screens follow records, so a signed-in console usually holds it).
 */
export function useLiveChanges(): void {
  // A tab whose stream another took stays off until asked or shown again (decision 100): a screen
  // opening in it is not asking, or two tabs would take the stream from each other for ever.
  useEffect(() => {
    if (!taskStore.get().replaced) ensureFollowingTasks();
  }, []);
}

/** The keys (as strings) of this kind's rows others changed in the last moments. */
export function useChangedRows(kind: string | undefined): ReadonlyMap<string, ChangeMark> {
  useLiveChanges();
  const all = useStore(marks);
  if (!kind) return EMPTY;
  const mine = new Map<string, ChangeMark>();
  const prefix = `${kind}/`;
  for (const [k, v] of all) if (k.startsWith(prefix)) mine.set(k.slice(prefix.length), v);
  return mine.size ? mine : EMPTY;
}
const EMPTY: ReadonlyMap<string, ChangeMark> = new Map();

/**
 * The last change someone else committed to this record since the form opened (null: none). A
 * form shows it as a notice; whether a save is then refused is the server's (stale-save check).
 */
export function useRecordChanged(kind: string, id: string | number | null | undefined): ChangeMark | null {
  useLiveChanges();
  const [mark, setMark] = useState<ChangeMark | null>(null);
  useEffect(() => {
    setMark(null);
    if (id === null || id === undefined) return;
    const listener = (c: RecordChange) => {
      if (c.kind === kind && c.id === String(id)) setMark({ by: c.by, at: c.at });
    };
    recordListeners.add(listener);
    return () => void recordListeners.delete(listener);
  }, [kind, id]);
  return mark;
}
