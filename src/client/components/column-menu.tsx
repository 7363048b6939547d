import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useCallback, useState } from 'react';
import { readJson, writeJson } from '../lib/storage';

export interface ColumnChoice {
  id: string;
  header: string;
  /** Always shown (the key column, 操作): hiding them would leave rows nobody can act on. */
  fixed?: boolean;
  hiddenByDefault?: boolean;
}

const storageKey = (tableId: string) => `bus-console.columns.${tableId}`;

/** Hidden column ids per table, remembered in local storage across sessions. */
export function useHiddenColumns(tableId: string, columns: readonly ColumnChoice[]) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => {
    const saved = readJson<unknown>(storageKey(tableId));
    if (Array.isArray(saved)) return new Set(saved.filter((x): x is string => typeof x === 'string'));
    return new Set(columns.filter((c) => c.hiddenByDefault).map((c) => c.id));
  });
  const toggle = useCallback(
    (id: string) =>
      setHidden((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        writeJson(storageKey(tableId), [...next]);
        return next;
      }),
    [tableId],
  );
  return [hidden, toggle] as const;
}

export function ColumnMenu({ columns, hidden, onToggle }: { columns: readonly ColumnChoice[]; hidden: ReadonlySet<string>; onToggle(id: string): void }) {
  const shown = columns.filter((c) => !hidden.has(c.id)).length;
  return (
    <Popover className="relative">
      <PopoverButton className="inline-flex h-8 items-center gap-1 rounded border border-gray-300 bg-white px-2.5 text-sm text-gray-700 hover:border-[var(--theme)] hover:text-[var(--theme-strong)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--theme)]">
        列设置 <span aria-hidden="true">▾</span>
      </PopoverButton>
      <PopoverPanel anchor="bottom end" className="z-40 mt-1 w-44 rounded border border-gray-200 bg-white py-1 text-sm shadow-lg">
        <fieldset>
          <legend className="px-3 py-1 text-xs text-gray-500">显示的列</legend>
          {columns.map((c) => {
            const checked = !hidden.has(c.id);
            // The last visible column stays: a table with no columns is no table.
            const locked = c.fixed || (checked && shown <= 1);
            return (
              <label key={c.id} className={`flex items-center gap-2 px-3 py-1.5 ${locked ? 'text-gray-500' : 'cursor-pointer hover:bg-gray-50'}`}>
                <input type="checkbox" checked={checked} disabled={locked} onChange={() => onToggle(c.id)} className="size-4 accent-[var(--theme)]" />
                {c.header}
              </label>
            );
          })}
        </fieldset>
      </PopoverPanel>
    </Popover>
  );
}
