import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { holdsPersonalNumber } from '../../shared/domain/mask';
import type { EntitySource } from './entity-source';
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
}

/**
 * The records the palette can offer: `load` sources fetched once per opening and ranked locally
 * with pinyin, and `query` sources asked on the server for what is typed.
 */
export function usePaletteRecords({ open, sources, canOpenRef, mode, text, asking }: RecordsQuery) {
  const [loadedBySource, setLoadedBySource] = useState<Record<string, PaletteItem[]>>({});
  // In the sources' own order, so ties rank the same whichever list answered first.
  const loaded = useMemo(() => sources.flatMap((src) => loadedBySource[src.id] ?? []), [sources, loadedBySource]);
  const [loadsPending, setLoadsPending] = useState(0);
  useEffect(() => {
    if (!open) return;
    let live = true;
    const loading = sources.filter((s) => s.load);
    setLoadsPending(loading.length);
    for (const s of loading) {
      s.load!()
        .then((records) => {
          if (!live) return;
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
          if (live) setLoadsPending((n) => Math.max(0, n - 1));
        });
    }
    return () => {
      live = false;
    };
  }, [open, sources, canOpenRef]);

  const { remote, remotePending, setRemote } = useRemoteRecords({ open, sources, canOpenRef, mode, text, asking });
  return { loaded, loadsPending, remote, remotePending, clearRemote: () => setRemote([]) };
}

/** `query` sources: debounced, and an answer to an older query is dropped when it arrives late. */
function useRemoteRecords({ open, sources, canOpenRef, mode, text, asking }: RecordsQuery) {
  const [remote, setRemote] = useState<PaletteItem[]>([]);
  const generation = useRef(0);
  // A query waiting for its debounce or its answers: the list says it is busy meanwhile.
  const [remotePending, setRemotePending] = useState(false);
  useEffect(() => {
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
      Promise.all(querying.map((s) => s.query!(text).then((rs) => rs.filter((r) => canOpenRef.current(r.path)).map((r) => recordItem(r, s.group))).catch(() => [])))
        .then((lists) => {
          if (mine !== generation.current) return;
          setRemote(lists.flat());
          setRemotePending(false);
        })
        .catch(() => undefined);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, text, mode, sources, asking, canOpenRef]);
  return { remote, remotePending, setRemote };
}
