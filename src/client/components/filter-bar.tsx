import { type FormEvent, useId, useState } from 'react';
import type { Endpoint } from '../../shared/api';
import { formatDateTime, parseTypedDateTime } from '../../shared/domain/time';
import type { CallInput } from '../lib/http';
import { useApi } from '../lib/use-api';
import { Button } from './button';

export interface FilterOption {
  value: string;
  label: string;
}

/**
 * A select's options that another call gives (the lines, the chosen line's buses): read while the bar
 * shows, with the filters applied (a bus list follows the line chosen); `input` null waits.
 */
export interface OptionSource {
  endpoint: Endpoint;
  input(values: Readonly<Record<string, string>>): CallInput | null;
  options(data: unknown): readonly FilterOption[];
}

export type FilterDef<K extends string = string> =
  | { key: K; label: string; type: 'text'; placeholder?: string; maxLength?: number }
  /** `options` first (全部), then what `source` answers. */
  | { key: K; label: string; type: 'select'; options: readonly FilterOption[]; source?: OptionSource }
  /**
   * A Shanghai wall-clock time, typed as `YYYY-MM-DD HH:mm` (a date alone means its start, or its
   * end with `endOfDay`); the value kept and sent is ISO 8601 with +08:00.
   */
  | { key: K; label: string; type: 'datetime'; endOfDay?: boolean };

const CONTROL =
  'h-8 rounded border border-gray-300 bg-white px-2 text-sm outline-none focus:border-[var(--theme)] focus-visible:ring-2 focus-visible:ring-[var(--theme)]/40';

interface FilterBarProps<K extends string> {
  fields: readonly FilterDef<K>[];
  values: Record<K, string>;
  onApply(values: Partial<Record<K, string>>): void;
  onReset(): void;
}

/**
 * Text and time filters are drafts until Enter or 查询 (one request, not one per keystroke);
 * a select applies at once, since choosing is already a decision.
 */
export function FilterBar<K extends string>({ fields, values, onApply, onReset }: FilterBarProps<K>) {
  const baseId = useId();
  const [draft, setDraft] = useState(values);
  // 重置 also clears text that never became a value (an unparsed date): its inputs start over.
  const [resets, setResets] = useState(0);
  const applied = JSON.stringify(values);
  const [seen, setSeen] = useState(applied);
  // The URL is the truth: back/forward, 重置 or a tab's stored query replace the drafts.
  if (seen !== applied) {
    setSeen(applied);
    setDraft(values);
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  const set = (key: K, value: string, apply = false) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    if (apply) onApply(next);
  };

  return (
    <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-x-3 gap-y-2" noValidate>
      {fields.map((f) => {
        const id = `${baseId}-${f.key}`;
        const value = draft[f.key] ?? '';
        return (
          <div key={f.key} className="flex min-w-0 items-center gap-1.5">
            <label htmlFor={id} className="shrink-0 text-sm text-gray-600">
              {f.label}
            </label>
            {f.type === 'text' && (
              <input
                id={id}
                type="search"
                data-filter
                value={value}
                placeholder={f.placeholder}
                maxLength={f.maxLength}
                onChange={(e) => set(f.key, e.target.value)}
                className={`${CONTROL} w-40 min-w-0 sm:w-44`}
              />
            )}
            {f.type === 'select' && (
              <select id={id} data-filter value={value} onChange={(e) => set(f.key, e.target.value, true)} className={`${CONTROL} max-w-44`}>
                {f.source ? <SourcedOptions fixed={f.options} source={f.source} values={values} current={value} /> : <Options options={f.options} current={value} />}
              </select>
            )}
            {f.type === 'datetime' && <DateTimeInput key={resets} id={id} iso={value} endOfDay={f.endOfDay} onChange={(iso) => set(f.key, iso)} />}
          </div>
        );
      })}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" className="h-8" hotkey="Enter">
          查询
        </Button>
        <Button
          onClick={() => {
            setResets((n) => n + 1);
            onReset();
          }}
          className="h-8"
        >
          重置
        </Button>
      </div>
    </form>
  );
}

/** A select's options, keeping a value they lack (an old link, a list still loading) visible as itself. */
function Options({ options, current }: { options: readonly FilterOption[]; current: string }) {
  const shown = current && !options.some((o) => o.value === current) ? [...options, { value: current, label: current }] : options;
  return shown.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}

/** Its own component: the call is a hook, and only a select fed by another call makes it. */
function SourcedOptions({ fixed, source, values, current }: { fixed: readonly FilterOption[]; source: OptionSource; values: Readonly<Record<string, string>>; current: string }) {
  const answer = useApi(source.endpoint, source.input(values));
  return <Options options={answer.data === undefined ? fixed : [...fixed, ...source.options(answer.data)]} current={current} />;
}

/**
 * Date and time as text, not `datetime-local`: the browser would show its own locale's
 * `mm/dd/yyyy, --:-- --`, and typing `2026-11-23 08:30` is quicker than any picker. What does not
 * parse is marked and left out of the query.
 */
function DateTimeInput({ id, iso, endOfDay, onChange }: { id: string; iso: string; endOfDay?: boolean; onChange(iso: string): void }) {
  // Seconds only when they matter (an end of day is 23:59:59, not 23:59).
  const shown = iso ? formatDateTime(iso, formatDateTime(iso, 'ss') === '00' ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD HH:mm:ss') : '';
  const [text, setText] = useState(shown);
  const [seen, setSeen] = useState(iso);
  const [emitted, setEmitted] = useState(iso);
  if (seen !== iso) {
    setSeen(iso);
    // A new value from outside (重置, the URL) replaces the text; one this input produced keeps it.
    if (iso !== emitted) setText(shown);
  }
  const invalid = !!text.trim() && !parseTypedDateTime(text, { endOfDay });
  return (
    <span className="relative">
      <input
        id={id}
        data-filter
        inputMode="numeric"
        autoComplete="off"
        placeholder="YYYY-MM-DD HH:mm"
        value={text}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const next = e.target.value.trim() ? (parseTypedDateTime(e.target.value, { endOfDay }) ?? '') : '';
          setEmitted(next);
          onChange(next);
        }}
        className={`${CONTROL} w-40 tabular-nums ${invalid ? 'border-red-400' : ''}`}
      />
      {invalid && (
        <span id={`${id}-error`} role="alert" className="absolute top-full left-0 z-10 mt-0.5 whitespace-nowrap text-xs text-red-600">
          格式如 2026-11-23 08:30
        </span>
      )}
    </span>
  );
}
