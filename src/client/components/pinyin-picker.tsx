import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Label, Field as HeadlessField } from '@headlessui/react';
import { forwardRef, useMemo, useState } from 'react';
import { buildIndex, search } from '../../shared/domain/search';
import { useRomanize } from '../lib/use-romanize';

export interface PickerItem {
  id: number;
  label: string;
  /** Shown after the label, dimmer (the district, 停用, coordinates). */
  hint?: string;
  disabled?: boolean;
}

interface PinyinPickerProps {
  label: string;
  items: readonly PickerItem[];
  onPick(item: PickerItem): void;
  placeholder?: string;
  /** Shown under the input: what Enter does here. */
  help?: string;
  className?: string;
}

const LIMIT = 30;

/**
 * Picks one record from a few thousand by typing: characters, pinyin (renminguangchang) or initials
 * (rmgc), with the palette's ranking. Enter picks the highlighted row and clears the input for the
 * next one, so a planner adds stops one after another without leaving the keyboard.
 */
export const PinyinPicker = forwardRef<HTMLInputElement, PinyinPickerProps>(function PinyinPicker({ label, items, onPick, placeholder, help, className = '' }, ref) {
  const { romanize } = useRomanize();
  const [query, setQuery] = useState('');
  const index = useMemo(() => buildIndex(items.map((i) => ({ id: String(i.id), title: i.label, keywords: i.hint ? [i.hint] : [] })), romanize ?? undefined), [items, romanize]);
  const byId = useMemo(() => new Map(items.map((i) => [String(i.id), i])), [items]);
  const shown = useMemo(() => (query.trim() ? search(index, query, { limit: LIMIT }).map((m) => byId.get(m.id)!) : items.slice(0, LIMIT)), [query, index, byId, items]);
  return (
    <HeadlessField className={`flex flex-col gap-1 ${className}`}>
      <Label className="text-sm text-gray-600">{label}</Label>
      <Combobox<PickerItem | null>
        value={null}
        onChange={(item) => {
          if (!item) return;
          onPick(item);
          setQuery('');
        }}
      >
        <div className="relative">
          <ComboboxInput
            ref={ref}
            className="w-full rounded border border-gray-300 px-3 py-1.5 text-sm outline-none focus:border-[var(--theme)] focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40"
            placeholder={placeholder}
            autoComplete="off"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <ComboboxOptions anchor="bottom start" modal={false} className="z-50 max-h-72 w-[var(--input-width)] overflow-auto rounded border border-gray-200 bg-white py-1 text-sm shadow-lg empty:invisible">
            {shown.length === 0 && query.trim() !== '' ? (
              <div className="px-3 py-2 text-gray-600">没有匹配的站点</div>
            ) : (
              shown.map((item) => (
                <ComboboxOption key={item.id} value={item} disabled={item.disabled} className="flex cursor-pointer items-baseline gap-2 px-3 py-1.5 data-[disabled]:cursor-not-allowed data-[disabled]:text-gray-400 data-[focus]:bg-[var(--theme)]/10">
                  <span className="text-gray-900">{item.label}</span>
                  {item.hint && <span className="truncate text-xs text-gray-600">{item.hint}</span>}
                </ComboboxOption>
              ))
            )}
          </ComboboxOptions>
        </div>
      </Combobox>
      {help && <p className="text-xs text-gray-600">{help}</p>}
    </HeadlessField>
  );
});
