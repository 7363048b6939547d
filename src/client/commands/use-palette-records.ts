import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { holdsPersonalNumber } from '../../shared/domain/mask';
import type { RecordActions } from '../components/resource/row-action';
import type { EntityRecord, EntitySource } from './entity-source';
import { type Mode, recordItem, sourceMode } from './palette-rows';
import type { PaletteItem } from './types';

const DEBOUNCE_MS = 150;

interface RecordsQuery {
  open: boolean;
  sources: readonly EntitySource[];
  /** Read when records arrive, which may be after a render with newer menus. */
  canOpenRef: RefObject<(path: string) => boolean>;
  mode: Mode;
  text: string;
  /** A command's argument is being asked: the server is not searched meanwhile. */
  asking: boolean;
  /** A record's actions are shown: the server's answers stay as they are, for the way back. */
  paused?: boolean;
}

/**
 * The records the palette can offer: `load` sources fetched once per opening and ranked locally
 * with pinyin, and `query` sources asked on the server for what is typed.
 */
export function usePaletteRecords({ open, sources, canOpenRef, mode, text, asking, paused }: RecordsQuery) {
  const [loadedBySource, setLoadedBySource] = useState<Record<string, PaletteItem[]>>({});
  // In the sources' own order, so ties rank the same whichever list answered first.
  const loaded = useMemo(() => sources.flatMap((src) => loadedBySource[src.id] ?? []), [sources, loadedBySource]);
  // Counted for the sources they were started for: in the render where new sources arrive (the
  // features' registry, fetched after the shell) their loads are pending before the effect starts them.
  const [pending, setPending] = useState<{ of: readonly EntitySource[]; n: number }>({ of: sources, n: 0 });
  // The newest row of each record: a list that answers as before keeps its rows (and its index), but
  // an action must run on the row as this opening fetched it (a station moved since keeps its place).
  const rows = useRef(new Map<string, RecordActions>()).current;
  const keepRows = useCallback(
    (records: readonly EntityRecord[]) => {
      for (const r of records) if (r.actions) rows.set(r.key, r.actions);
    },
    [rows],
  );
  useEffect(() => {
    if (!open) return;
    // Rows of an earlier opening are not this one's: an item kept from then falls back to its own until its list answers.
    rows.clear();
    let live = true;
    const loading = sources.filter((s) => s.load);
    setPending({ of: sources, n: loading.length });
    for (const s of loading) {
      s.load!()
        .then((records) => {
          if (!live) return;
          keepRows(records);
          const items: PaletteItem[] = records.filter((r) => canOpenRef.current(r.path)).map((r) => ({ ...recordItem(r, s.group), mode: sourceMode(s) }));
          // The same records as last time keep the same list, so reopening rebuilds no index.
          setLoadedBySource((prev) => {
            const old = prev[s.id];
            const same = old?.length === items.length && old.every((o, i) => o.key === items[i]!.key && o.title === items[i]!.title && o.subtitle === items[i]!.subtitle);
            return same ? prev : { ...prev, [s.id]: items };
          });
        })
        .catch(() => undefined)
        .finally(() => {
          if (live) setPending((p) => ({ of: p.of, n: Math.max(0, p.n - 1) }));
        });
    }
    return () => {
      live = false;
    };
  }, [open, sources, canOpenRef, keepRows, rows]);

  const { remote, remotePending, setRemote } = useRemoteRecords({ open, sources, canOpenRef, mode, text, asking, paused, keepRows });
  /** A row's record and actions as last fetched. */
  const actionsOf = useCallback((item: PaletteItem) => (item.actions ? (rows.get(item.key) ?? item.actions) : undefined), [rows]);
  const loadsPending = !open ? 0 : pending.of === sources ? pending.n : sources.filter((s) => s.load).length;
  return { loaded, loadsPending, remote, remotePending, clearRemote: () => setRemote([]), actionsOf };
}

/** `query` sources: debounced, and an answer to an older query is dropped when it arrives late. */
function useRemoteRecords({ open, sources, canOpenRef, mode, text, asking, paused, keepRows }: RecordsQuery & { keepRows(records: readonly EntityRecord[]): void }) {
  const [remote, setRemote] = useState<PaletteItem[]>([]);
  const generation = useRef(0);
  // A query waiting for its debounce or its answers: the list says it is busy meanwhile.
  const [remotePending, setRemotePending] = useState(false);
  useEffect(() => {
    if (paused && open) return;
    // A phone, citizen id or card number goes only to the sources that look numbers up in a body.
    const querying = sources.filter((s) => s.query && (mode === 'all' || sourceMode(s) === mode) && (s.takesNumbers || !holdsPersonalNumber(text)));
    if (!open || asking || text.length < 2 || !querying.length || mode === 'commands' || mode === 'pages') {
      setRemote((r) => (r.length ? [] : r));
      setRemotePending(false);
      return;
    }
    const mine = ++generation.current;
    setRemotePending(true);
    const timer = setTimeout(() => {
      Promise.all(
        querying.map((s) =>
          s
            .query!(text)
            .then((rs) => ({ group: s.group, rs }))
            .catch(() => ({ group: s.group, rs: [] as EntityRecord[] })),
        ),
      )
        .then((answers) => {
          // An answer to an older query keeps none of its rows either: they may be older than the newer query's.
          if (mine !== generation.current) return;
          for (const a of answers) keepRows(a.rs);
          setRemote(answers.flatMap((a) => a.rs.filter((r) => canOpenRef.current(r.path)).map((r) => recordItem(r, a.group))));
          setRemotePending(false);
        })
        .catch(() => undefined);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, text, mode, sources, asking, paused, canOpenRef, keepRows]);
  return { remote, remotePending, setRemote };
}
