import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from './button';

export interface OrderedItem {
  /** Stable per row while editing (a station can appear twice: a loop's first and last stop). */
  key: string;
  label: string;
  /** Marks shown after the label (停用, 与上一站相同). */
  badges?: readonly { text: string; tone: 'warn' | 'muted' }[];
}

interface OrderedListEditorProps<T extends OrderedItem> {
  label: string;
  items: readonly T[];
  onChange?(items: T[]): void;
  selected: number;
  onSelect(index: number): void;
  /** Shown instead of the list when it has no rows. */
  empty: ReactNode;
}

/** Moves one element of a copy of `list` from `from` to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

const BADGE = { warn: 'bg-red-50 text-red-700', muted: 'bg-gray-100 text-gray-600' } as const;

/**
 * An ordered list edited from the keyboard (one tab stop): ↑/↓ or j/k select a row, Alt+↑/↓ move
 * it, Delete removes it, Home/End jump; the buttons above do the same for the pointer, and rows
 * can be dragged. Without `onChange` it is read-only but still navigable.
 */
export function OrderedListEditor<T extends OrderedItem>({ label, items, onChange, selected, onSelect, empty }: OrderedListEditorProps<T>) {
  const id = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  // Removing the last row unmounts the focused list: focus goes to the empty state instead of <body>.
  const refocusEmpty = useRef(false);
  const emptyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (refocusEmpty.current && items.length === 0) emptyRef.current?.focus();
    refocusEmpty.current = false;
  }, [items.length]);
  const editable = !!onChange;
  const at = Math.min(Math.max(selected, 0), items.length - 1);
  const move = (delta: number) => {
    const to = at + delta;
    if (!onChange || at < 0 || to < 0 || to >= items.length) return;
    onChange(moved(items, at, to));
    onSelect(to);
  };
  const remove = () => {
    if (!onChange || at < 0) return;
    refocusEmpty.current = items.length === 1;
    onChange(items.filter((_, i) => i !== at));
    onSelect(Math.min(at, items.length - 2));
  };
  const select = (i: number) => {
    if (!items.length) return;
    const to = Math.min(Math.max(i, 0), items.length - 1);
    onSelect(to);
    document.getElementById(`${id}-${to}`)?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const up = e.key === 'ArrowUp' || (e.key === 'k' && !e.altKey);
    const down = e.key === 'ArrowDown' || (e.key === 'j' && !e.altKey);
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) move(e.key === 'ArrowUp' ? -1 : 1);
    else if (up) select(at - 1);
    else if (down) select(at + 1);
    else if (e.key === 'Home') select(0);
    else if (e.key === 'End') select(items.length - 1);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && editable) remove();
    else return;
    e.preventDefault();
  };
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {editable && (
        <div className="flex flex-wrap gap-1" role="group" aria-label={`${label}：调整所选站点`}>
          <Button className="h-7 px-2 text-xs" hotkey="Alt+↑" disabled={at <= 0} onClick={() => move(-1)}>
            上移
          </Button>
          <Button className="h-7 px-2 text-xs" hotkey="Alt+↓" disabled={at < 0 || at >= items.length - 1} onClick={() => move(1)}>
            下移
          </Button>
          <Button className="h-7 px-2 text-xs !text-red-700" hotkey="Del" disabled={at < 0} onClick={remove}>
            移除
          </Button>
        </div>
      )}
      {items.length === 0 ? (
        <div ref={emptyRef} tabIndex={-1} className="rounded border border-dashed border-gray-300 px-3 py-6 text-center text-sm text-gray-600 outline-none focus-visible:ring-2 focus-visible:ring-[var(--theme)]/50">
          {empty}
        </div>
      ) : (
        <ol
          ref={listRef}
          role="listbox"
          aria-label={label}
          tabIndex={0}
          aria-activedescendant={at >= 0 ? `${id}-${at}` : undefined}
          onKeyDown={onKeyDown}
          className="max-h-[60vh] overflow-auto rounded border border-gray-200 bg-white outline-none focus-visible:ring-2 focus-visible:ring-[var(--theme)]/50"
        >
          {items.map((item, i) => (
            <li
              key={item.key}
              id={`${id}-${i}`}
              role="option"
              aria-selected={i === at}
              draggable={editable}
              onClick={() => onSelect(i)}
              onDragStart={() => setDragging(i)}
              onDragOver={(e) => dragging !== null && e.preventDefault()}
              onDrop={() => {
                if (dragging !== null && onChange && dragging !== i) {
                  onChange(moved(items, dragging, i));
                  onSelect(i);
                }
                setDragging(null);
              }}
              onDragEnd={() => setDragging(null)}
              className={`flex cursor-default items-center gap-2 border-b border-gray-100 px-3 py-1.5 text-sm last:border-b-0 ${i === at ? 'bg-[var(--theme)]/10 font-medium' : ''} ${dragging === i ? 'opacity-50' : ''}`}
            >
              <span className="w-7 shrink-0 text-right tabular-nums text-gray-600">{i + 1}</span>
              <span className="min-w-0 flex-1 truncate text-gray-900">{item.label}</span>
              {item.badges?.map((b) => (
                <span key={b.text} className={`shrink-0 rounded px-1.5 py-0.5 text-xs ${BADGE[b.tone]}`}>
                  {b.text}
                </span>
              ))}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
