import { useEffect, useMemo, useRef, useState } from 'react';
import { type Romanize, buildIndex, buildIndexAsync, createSearcher } from '../../shared/domain/search';
import { type Mode, type ModedItem, type Pools, type ReadyIndex, commandItem, entriesOf } from './palette-rows';
import type { Command, PaletteItem } from './types';

/** Above this many rows the index is built in slices after the render, not in it. */
const SYNC_LIMIT = 5000;

interface IndexInput {
  open: boolean;
  commands: readonly Command[];
  pages: readonly PaletteItem[];
  /** The `load` sources' records, each marked with its mode. */
  loaded: readonly PaletteItem[];
  romanize: Romanize | null;
}

/**
 * The local pools (pages, commands, records by mode) and the ranking over them. `ready` may lag
 * behind `pools` while a large index is built: the palette ranks over the last ready one meanwhile.
 */
export function usePaletteIndex({ open, commands, pages, loaded, romanize }: IndexInput) {
  const commandItems = useMemo(() => commands.map(commandItem), [commands]);
  const pools = useMemo((): Pools => {
    const ofMode = (m: Mode) => loaded.filter((i) => (i as ModedItem).mode === m);
    return {
      // Records are found from the default mode too, by pinyin (qslt → 七莘路体育场): `#` only narrows to them.
      all: [...pages, ...commandItems, ...ofMode('all'), ...ofMode('stations'), ...ofMode('riders')],
      commands: commandItems,
      pages,
      stations: ofMode('stations'),
      riders: ofMode('riders'),
    };
  }, [commandItems, pages, loaded]);

  const byKeys = useMemo(() => {
    const of = (items: readonly PaletteItem[]) => new Map(items.map((i) => [i.key, i]));
    return { all: of(pools.all), commands: of(pools.commands), pages: of(pools.pages), stations: of(pools.stations), riders: of(pools.riders) };
  }, [pools]);

  // Small lists are indexed in render; a large one in slices after it (ranking meanwhile over the
  // last ready index and its own pool), so records arriving never block typing.
  const small = pools.all.length + pools.stations.length + pools.riders.length <= SYNC_LIMIT;
  const syncReady = useSyncIndex(open, small, pools, byKeys, romanize);
  const asyncReady = useAsyncIndex(small, pools, byKeys, romanize);
  const lastReady = useRef<ReadyIndex | null>(null);
  const ready = syncReady ?? asyncReady ?? lastReady.current;
  useEffect(() => {
    lastReady.current = ready;
  });
  return { commandItems, pools, ready };
}

function useSyncIndex(open: boolean, small: boolean, pools: Pools, byKeys: ReadyIndex['byKeys'], romanize: Romanize | null): ReadyIndex | null {
  // While the palette is closed (lists arriving after a lookup's Enter), indexing waits for an idle
  // moment: pinyin for 2,000 names took the main thread for 300 ms, just when the card view painted.
  const [idleIndexing, setIdleIndexing] = useState(false);
  const built = useRef<{ items: Pools; romanize: Romanize | null; value: ReadyIndex } | null>(null);
  const fresh = built.current?.items === pools && built.current.romanize === romanize;
  useEffect(() => {
    if (open || !small || fresh) return;
    setIdleIndexing(false);
    const whenIdle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 500));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const id = whenIdle(() => setIdleIndexing(true), { timeout: 3_000 });
    return () => cancel(id);
  }, [open, small, fresh]);
  return useMemo((): ReadyIndex | null => {
    if (!small) return null;
    if (fresh || (!open && !idleIndexing)) return built.current?.value ?? null;
    const make = (items: readonly PaletteItem[]) => createSearcher(buildIndex(entriesOf(items), romanize ?? undefined));
    const value = {
      items: pools,
      byKeys,
      romanized: !!romanize,
      searchers: { all: make(pools.all), commands: make(pools.commands), pages: make(pools.pages), stations: make(pools.stations), riders: make(pools.riders) },
    };
    built.current = { items: pools, romanize, value };
    return value;
    // `fresh` and `built` follow pools and romanize.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pools, byKeys, small, romanize, open, idleIndexing]);
}

function useAsyncIndex(small: boolean, pools: Pools, byKeys: ReadyIndex['byKeys'], romanize: Romanize | null): ReadyIndex | null {
  const [asyncReady, setAsyncReady] = useState<ReadyIndex | null>(null);
  useEffect(() => {
    if (small) return;
    const ctl = new AbortController();
    const make = async (items: readonly PaletteItem[]) =>
      createSearcher(await buildIndexAsync(entriesOf(items), { signal: ctl.signal, romanize: romanize ?? undefined }));
    (async () => {
      const searchers = { all: await make(pools.all), commands: await make(pools.commands), pages: await make(pools.pages), stations: await make(pools.stations), riders: await make(pools.riders) };
      if (!ctl.signal.aborted) setAsyncReady({ items: pools, byKeys, romanized: !!romanize, searchers });
    })().catch(() => undefined);
    return () => ctl.abort();
  }, [pools, byKeys, small, romanize]);
  return asyncReady;
}
