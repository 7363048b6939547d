import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { buildIndex, search } from '../../../../shared/domain/search';
import { parseTypedDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { useScreenLocation } from '../../../lib/screen-context';
import { useRomanize } from '../../../lib/use-romanize';
import { lastCompleteDays } from './ride-range';

export type RidershipFilterKey = 'startDate' | 'endDate' | 'lineCode' | 'busName';
export type RidershipFilterValues = Record<RidershipFilterKey, string>;

export interface LineOption {
  lineCode: string;
  lineName: string;
}

const CONTROL =
  'h-8 rounded border border-gray-300 bg-white px-2 text-sm outline-none focus:border-[var(--theme)] focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40';
const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
const QUICK = [7, 30, 90] as const;

/** A day as operators type it (2026-11-23, 2026/11/23, 20261123), or null. */
const parseDay = (text: string) => parseTypedDateTime(text)?.slice(0, 10) ?? null;

interface RidershipFiltersProps {
  values: RidershipFilterValues;
  lines: readonly LineOption[];
  buses: readonly string[];
  onApply(values: RidershipFilterValues): void;
  onReset(): void;
}

/**
 * 乘车统计's filters, one form above the totals, the charts and the table they all follow. Days are
 * drafts until Enter or 查询; a line, a bus or a quick range applies at once. `/` jumps here from
 * anywhere on the screen, as in every list.
 */
export function RidershipFilters({ values, lines, buses, onApply, onReset }: RidershipFiltersProps) {
  const baseId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { active } = useScreenLocation();
  const [draft, setDraft] = useState({ startDate: values.startDate, endDate: values.endDate });
  const applied = JSON.stringify(values);
  const [seen, setSeen] = useState(applied);
  // The address is the truth: back/forward, 重置 or a command replace the drafts.
  if (seen !== applied) {
    setSeen(applied);
    setDraft({ startDate: values.startDate, endDate: values.endDate });
  }
  const startBad = !parseDay(draft.startDate);
  const endBad = !parseDay(draft.endDate);

  const apply = (patch: Partial<RidershipFilterValues>) => {
    const startDate = parseDay(draft.startDate) ?? values.startDate;
    const endDate = parseDay(draft.endDate) ?? values.endDate;
    onApply({ ...values, startDate, endDate, ...patch });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!startBad && !endBad) apply({});
  };

  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target instanceof HTMLElement ? e.target : null;
      if (t?.closest(EDITABLE) || t?.closest('[role="dialog"]')) return;
      const form = formRef.current;
      // A cached screen behind another tab is display:none: it has no offset parent.
      if (!form || form.offsetParent === null) return;
      e.preventDefault();
      form.querySelector<HTMLInputElement>('input')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active]);

  return (
    <form ref={formRef} role="search" aria-label="客流查询条件" onSubmit={submit} noValidate className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded bg-white p-3 shadow-sm sm:p-4">
      <DayInput id={`${baseId}-start`} label="日期从" value={draft.startDate} invalid={startBad} onChange={(v) => setDraft((d) => ({ ...d, startDate: v }))} />
      <DayInput id={`${baseId}-end`} label="至" value={draft.endDate} invalid={endBad} onChange={(v) => setDraft((d) => ({ ...d, endDate: v }))} />
      <LineCombobox id={`${baseId}-line`} lines={lines} value={values.lineCode} onChange={(lineCode) => apply({ lineCode, busName: '' })} />
      <div className="flex min-w-0 items-center gap-1.5">
        <label htmlFor={`${baseId}-bus`} className="shrink-0 text-sm text-gray-600">
          车辆
        </label>
        <select id={`${baseId}-bus`} value={values.busName} onChange={(e) => apply({ busName: e.target.value })} className={`${CONTROL} max-w-44`}>
          <option value="">全部车辆</option>
          {values.busName && !buses.includes(values.busName) && <option value={values.busName}>{values.busName}</option>}
          {buses.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" className="h-8" hotkey="Enter">
          查询
        </Button>
        <Button className="h-8" onClick={onReset}>
          重置
        </Button>
      </div>
      <div className="flex items-center gap-1 text-sm" role="group" aria-label="快捷日期">
        {QUICK.map((n) => (
          <Button
            key={n}
            variant="text"
            className="h-8"
            onClick={() => {
              const r = lastCompleteDays(n);
              onApply({ ...values, startDate: r.start, endDate: r.end });
            }}
          >
            近{n}天
          </Button>
        ))}
      </div>
    </form>
  );
}

function DayInput({ id, label, value, invalid, onChange }: { id: string; label: string; value: string; invalid: boolean; onChange(v: string): void }) {
  return (
    <div className="flex min-w-0 items-center gap-1.5">
      <label htmlFor={id} className="shrink-0 text-sm text-gray-600">
        {label}
      </label>
      <span className="relative">
        <input
          id={id}
          inputMode="numeric"
          autoComplete="off"
          placeholder="YYYY-MM-DD"
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.value)}
          className={`${CONTROL} w-32 tabular-nums ${invalid ? 'border-red-400' : ''}`}
        />
        {invalid && (
          <span id={`${id}-error`} role="alert" className="absolute top-full left-0 z-10 mt-0.5 whitespace-nowrap text-xs text-red-600">
            格式如 2026-11-23
          </span>
        )}
      </span>
    </div>
  );
}

const ALL_LINES: LineOption = { lineCode: '', lineName: '全部线路' };
const SHOWN = 60;

/**
 * The line, picked by typing its number, its name or the name's pinyin (the palette's ranking);
 * the list opens on focus and Enter takes the highlighted line.
 */
function LineCombobox({ id, lines, value, onChange }: { id: string; lines: readonly LineOption[]; value: string; onChange(lineCode: string): void }) {
  const { romanize } = useRomanize();
  const [query, setQuery] = useState('');
  const index = useMemo(() => buildIndex(lines.map((l) => ({ id: l.lineCode, title: l.lineName, keywords: [l.lineCode] })), romanize ?? undefined), [lines, romanize]);
  const byCode = useMemo(() => new Map(lines.map((l) => [l.lineCode, l])), [lines]);
  const shown = useMemo(
    () => (query.trim() ? search(index, query, { limit: SHOWN }).map((m) => byCode.get(m.id)).filter((l): l is LineOption => !!l) : [ALL_LINES, ...lines.slice(0, SHOWN)]),
    [query, index, byCode, lines],
  );
  // A line an old link names but the list lacks still shows as itself.
  const selected = value ? (byCode.get(value) ?? { lineCode: value, lineName: value }) : ALL_LINES;
  return (
    <div className="flex min-w-0 items-center gap-1.5">
      <label htmlFor={id} className="shrink-0 text-sm text-gray-600">
        线路
      </label>
      <Combobox<LineOption | null>
        value={selected}
        by={(a, b) => a?.lineCode === b?.lineCode}
        onChange={(l) => {
          if (l) onChange(l.lineCode);
        }}
        onClose={() => setQuery('')}
        immediate
      >
        <div className="relative">
          <ComboboxInput
            id={id}
            className={`${CONTROL} w-36 pr-7`}
            placeholder="全部线路"
            autoComplete="off"
            // 全部 is the empty field (its placeholder says so): typing a line never lands after the word 全部.
            displayValue={(l: LineOption | null) => (l?.lineCode ? l.lineName : '')}
            // Focused, the chosen line is selected, so typing replaces it.
            onFocus={(e) => e.currentTarget.select()}
            onChange={(e) => setQuery(e.target.value)}
          />
          <ComboboxButton aria-label="展开线路列表" className="absolute inset-y-0 right-0 px-2 text-xs text-gray-500">
            ▾
          </ComboboxButton>
          <ComboboxOptions anchor="bottom start" modal={false} className="z-50 max-h-72 w-[var(--input-width)] min-w-36 overflow-auto rounded border border-gray-200 bg-white py-1 text-sm shadow-lg empty:invisible">
            {shown.length === 0 ? (
              <div className="px-3 py-2 text-gray-600">没有匹配的线路</div>
            ) : (
              shown.map((l) => (
                <ComboboxOption key={l.lineCode || 'all'} value={l} className="flex cursor-pointer items-baseline gap-2 px-3 py-1.5 data-[focus]:bg-[var(--theme)]/10 data-[selected]:font-medium">
                  <span className="text-gray-900">{l.lineName}</span>
                  {l.lineCode && l.lineName !== `${l.lineCode}路` && <span className="text-xs text-gray-600">{l.lineCode}</span>}
                </ComboboxOption>
              ))
            )}
          </ComboboxOptions>
        </div>
      </Combobox>
    </div>
  );
}
