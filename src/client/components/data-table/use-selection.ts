import { useCallback, useEffect, useState } from 'react';

export type RowKey = string | number;

export interface Selection<T> {
  /** Off when the table takes no selection: nothing is ever picked then. */
  enabled: boolean;
  isPicked(key: RowKey): boolean;
  /** The rows of this page that are picked, in the page's order. */
  selectedRows: readonly T[];
  count: number;
  pick(keys: readonly RowKey[], on: boolean): void;
  clear(): void;
}

/**
 * The rows picked for a bulk action. They belong to the page shown: `data` changing (another page,
 * another filter) clears them.
 */
export function useSelection<T>(enabled: boolean, rows: readonly T[], rowKey: (row: T) => RowKey, data: unknown): Selection<T> {
  const [picked, setPicked] = useState<ReadonlySet<RowKey>>(new Set());
  const clear = useCallback(() => setPicked(new Set()), []);
  const pick = useCallback(
    (keys: readonly RowKey[], on: boolean) =>
      setPicked((prev) => {
        const next = new Set(prev);
        for (const k of keys) if (on) next.add(k); else next.delete(k);
        return next;
      }),
    [],
  );
  // Another page (or filter) is other rows: what was picked on the last one is not carried over.
  useEffect(clear, [data, clear]);
  const selectedRows = enabled ? rows.filter((r) => picked.has(rowKey(r))) : [];
  return { enabled, isPicked: (key) => enabled && picked.has(key), selectedRows, count: picked.size, pick, clear };
}
