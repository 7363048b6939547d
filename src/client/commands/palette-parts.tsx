import { Command as Cmdk } from 'cmdk';
import { type Ref, useMemo } from 'react';
import { MODE_HINT, type Mode, type Step } from './palette-rows';
import type { PaletteItem } from './types';

interface HeaderProps {
  step: Step | null;
  /** The record whose actions show. */
  panel: string | null;
  /** An action's step: its chip (合并到… · the record) and its prompt. */
  choice?: { chip: string; prompt: string } | null;
  raw: string;
  mode: Mode;
  onType(value: string): void;
  onKeyDown(e: React.KeyboardEvent): void;
}

/** The query input, with the command and step it asks for (or the record whose actions show), and a step's refusal under it. */
export function PaletteHeader({ step, panel, choice, raw, mode, onType, onKeyDown }: HeaderProps) {
  const arg = step?.command.args?.[step.index];
  const placeholder = choice
    ? `${choice.prompt}（拼音或首字母均可）`
    : panel
      ? '筛选操作（拼音或首字母均可）'
      : arg
        ? `${arg.label}${arg.placeholder ? `，如 ${arg.placeholder}` : ''}`
        : `${MODE_HINT[mode]}；> 命令  / 页面  # 站点线路  @ 乘客卡片`;
  return (
    <>
      <div className="flex items-center gap-2 border-b border-gray-100 px-4">
        {step && (
          <span className="shrink-0 rounded bg-[var(--theme)]/10 px-2 py-0.5 text-xs text-[var(--theme-strong)]">
            {step.command.title} · {step.index + 1}/{step.command.args?.length}
          </span>
        )}
        {choice && <span className="max-w-[45%] shrink-0 truncate rounded bg-red-50 px-2 py-0.5 text-xs text-red-700">{choice.chip}</span>}
        {panel && <span className="max-w-[45%] shrink-0 truncate rounded bg-[var(--theme)]/10 px-2 py-0.5 text-xs text-[var(--theme-strong)]">{panel} · 操作</span>}
        <Cmdk.Input
          autoFocus
          value={raw}
          onValueChange={onType}
          onKeyDown={onKeyDown}
          placeholder={placeholder}
          className="h-12 w-full bg-transparent text-sm outline-none placeholder:text-gray-400"
        />
      </div>
      {step?.error && (
        <p role="alert" className="px-4 pt-2 text-xs text-red-600">
          {step.error}
        </p>
      )}
    </>
  );
}

interface ResultsProps {
  listRef: Ref<HTMLDivElement>;
  items: readonly PaletteItem[];
  /** Records, the dictionary or a server search still on their way: the rows may yet change. */
  busy: boolean;
  empty: string;
  /** A record with actions for this account: its row says Tab opens them. */
  hasActions(item: PaletteItem): boolean;
  /** A record's actions with their Alt chords, shown on its row while it is highlighted. */
  chordsOf(item: PaletteItem): string[];
  onSelect(key: string): void;
  /** The pointer over the list makes the selection the user's. */
  onPointerMove(): void;
}

/** The palette's rows, grouped under their headings in the order they rank. */
export function PaletteResults({ listRef, items, busy, empty, hasActions, chordsOf, onSelect, onPointerMove }: ResultsProps) {
  const groups = useMemo(() => {
    const map = new Map<string, PaletteItem[]>();
    for (const i of items) map.set(i.group, [...(map.get(i.group) ?? []), i]);
    return [...map.entries()];
  }, [items]);
  return (
    <>
      {/* Outside the listbox: a listbox may hold options and groups only (an axe critical otherwise); an empty one is fine. */}
      {!items.length && <p className="px-3 py-6 text-center text-sm text-gray-500">{empty}</p>}
      <Cmdk.List ref={listRef} label="搜索结果" aria-busy={busy} className={`max-h-[60vh] overflow-y-auto ${items.length ? 'p-2' : ''}`} onPointerMove={onPointerMove}>
        {groups.map(([group, rows]) => (
          <Cmdk.Group key={group} heading={group} className="mb-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-gray-500">
            {rows.map((item) => (
              <Cmdk.Item
                key={item.key}
                value={item.key}
                onSelect={onSelect}
                disabled={!!item.disabledReason}
                className="group flex cursor-pointer items-center gap-3 rounded px-2 py-2 text-sm text-gray-700 data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-50 data-[selected=true]:bg-[var(--theme)]/10 data-[selected=true]:text-[var(--theme-strong)]"
              >
                {/* A row stating a change (the time, the version) is read whole before Enter: it wraps. */}
                <span className={`min-w-0 flex-1 ${item.inline ? 'break-words' : 'truncate'}`}>
                  {item.title}
                  {(item.subtitle || item.disabledReason) && <span className="ml-2 text-xs text-gray-600">{item.disabledReason ?? item.subtitle}</span>}
                </span>
                {hasActions(item) && chordsOf(item).length > 0 && (
                  <span className="hidden shrink-0 gap-2 text-[11px] text-gray-500 sm:group-data-[selected=true]:flex" title="按 Alt 和字母直接执行">
                    {chordsOf(item).slice(0, 3).map((c) => (
                      <span key={c}>{c}</span>
                    ))}
                  </span>
                )}
                {hasActions(item) && (
                  <span className="shrink-0 text-[11px] text-gray-500" title="按 Tab 或 → 查看可执行的操作">
                    <kbd className="rounded border border-gray-200 bg-gray-50 px-1">Tab</kbd> 操作
                  </span>
                )}
                {item.hotkey && <kbd className="shrink-0 rounded border border-gray-200 bg-gray-50 px-1.5 text-[11px] text-gray-500">{item.hotkey}</kbd>}
              </Cmdk.Item>
            ))}
          </Cmdk.Group>
        ))}
      </Cmdk.List>
    </>
  );
}

/** The keys that work here, and the row count read out to screen readers as it changes. */
export function PaletteFooter({ inStep, inPanel, count }: { inStep: boolean; inPanel: boolean; count: number }) {
  return (
    <>
      <div className="flex flex-wrap gap-x-4 border-t border-gray-100 px-4 py-2 text-[11px] text-gray-500">
        <span>↑↓ 选择</span>
        <span>Enter 执行</span>
        {inPanel ? (
          <span>← 或 Esc 返回结果</span>
        ) : (
          <>
            <span>Esc 关闭</span>
            {inStep ? (
              <span>Backspace 上一步</span>
            ) : (
              <>
                <span>Tab 记录的操作</span>
                <span>Shift+Delete 移除最近使用</span>
              </>
            )}
          </>
        )}
      </div>
      <div aria-live="polite" className="sr-only">
        {count ? `${count} 个结果` : '没有结果'}
      </div>
    </>
  );
}
