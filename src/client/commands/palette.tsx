import { Command as Cmdk } from 'cmdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type SearchEntry, buildIndex, buildIndexAsync, createSearcher } from '../../shared/domain/search';
import type { EntityRecord, EntitySource } from './entity-source';
import { boostsOf, readRecents, recordRecent, removeRecent } from './recents';
import { sniff } from './sniff';
import { keyLabel } from './keys';
import type { ArgOption, Command, CommandContext, PaletteItem } from './types';

const ROWS = 50;
const DEBOUNCE_MS = 150;

type Mode = 'all' | 'commands' | 'pages' | 'stations' | 'riders';
/** Records carry the palette mode their source puts them in. */
type ModedItem = PaletteItem & { mode?: Mode };
const PREFIX: Record<string, Mode> = { '>': 'commands', '/': 'pages', '#': 'stations', '@': 'riders' };
const MODE_HINT: Record<Mode, string> = {
  all: '搜索页面、命令和记录（拼音或首字母均可）',
  commands: '命令',
  pages: '页面',
  stations: '站点与线路',
  riders: '乘客与卡片',
};

export function parseMode(raw: string): { mode: Mode; text: string } {
  const mode = PREFIX[raw.slice(0, 1)];
  return mode ? { mode, text: raw.slice(1).trim() } : { mode: 'all', text: raw.trim() };
}

const sourceMode = (s: EntitySource): Mode => (s.prefix === '#' ? 'stations' : s.prefix === '@' ? 'riders' : 'all');

interface Step {
  command: Command;
  index: number;
  values: Record<string, string>;
  options: ArgOption[] | null;
  error: string | null;
}

export interface PaletteProps {
  open: boolean;
  onClose(): void;
  login: string;
  commands: readonly Command[];
  pages: readonly PaletteItem[];
  sources: readonly EntitySource[];
  ctx: CommandContext;
}

const commandItem = (c: Command): PaletteItem => ({
  key: `command:${c.id}`,
  title: c.title,
  subtitle: c.args?.length ? `${c.group} · 需要输入` : c.group,
  group: '命令',
  hotkey: c.hotkey ? keyLabel(c.hotkey) : undefined,
  command: c,
});

const recordItem = (r: EntityRecord, group: string): PaletteItem => ({
  key: r.key,
  title: r.title,
  subtitle: r.subtitle,
  group,
  run: (ctx) => ctx.navigate(r.path),
});

/**
 * Ctrl+K: one palette over pages, commands and records. cmdk is only the shell (no filtering of
 * its own); ranking is `shared/domain/search` over an index built once per list.
 */
export function Palette({ open, onClose, login, commands, pages, sources, ctx }: PaletteProps) {
  const [raw, setRaw] = useState('');
  const [selected, setSelected] = useState('');
  const [step, setStep] = useState<Step | null>(null);
  const [loadedBySource, setLoadedBySource] = useState<Record<string, PaletteItem[]>>({});
  // In the sources' own order, so ties rank the same whichever list answered first.
  const loaded = useMemo(() => sources.flatMap((src) => loadedBySource[src.id] ?? []), [sources, loadedBySource]);
  const [remote, setRemote] = useState<PaletteItem[]>([]);
  const [recentsVersion, setRecentsVersion] = useState(0);
  const { mode, text } = parseMode(raw);
  // Focus goes back where it was when the palette closes (Radix would send it to a trigger we lack).
  const returnFocus = useRef<HTMLElement | null>(null);
  // The selection follows the top row until the user moves it; then it stays on that row.
  const userMoved = useRef(false);
  useEffect(() => {
    if (!open) return;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    userMoved.current = false;
    setSelected('');
  }, [open]);

  // Records of `load` sources: fetched when the palette opens, ranked locally with pinyin.
  useEffect(() => {
    if (!open) return;
    let live = true;
    for (const s of sources) {
      if (!s.load) continue;
      s.load()
        .then((records) => {
          if (!live) return;
          const items: PaletteItem[] = records.map((r) => ({ ...recordItem(r, s.group), mode: sourceMode(s) }));
          // The same records as last time keep the same list, so reopening rebuilds no index.
          setLoadedBySource((prev) => {
            const old = prev[s.id];
            const same = old?.length === items.length && old.every((o, i) => o.key === items[i]!.key && o.title === items[i]!.title && o.subtitle === items[i]!.subtitle);
            return same ? prev : { ...prev, [s.id]: items };
          });
        })
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [open, sources]);

  // `query` sources: debounced, and an answer to an older query is dropped when it arrives late.
  const generation = useRef(0);
  useEffect(() => {
    const querying = sources.filter((s) => s.query && (mode === 'all' || sourceMode(s) === mode));
    if (!open || step || text.length < 2 || !querying.length || mode === 'commands' || mode === 'pages') {
      setRemote((r) => (r.length ? [] : r));
      return;
    }
    const mine = ++generation.current;
    const timer = setTimeout(() => {
      Promise.all(querying.map((s) => s.query!(text).then((rs) => rs.map((r) => recordItem(r, s.group))).catch(() => [])))
        .then((lists) => {
          if (mine === generation.current) setRemote(lists.flat());
        })
        .catch(() => undefined);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, text, mode, sources, step]);

  const commandItems = useMemo(() => commands.map(commandItem), [commands]);
  const localItems = useMemo(() => {
    const ofMode = (m: Mode) => loaded.filter((i) => (i as ModedItem).mode === m);
    return {
      all: [...pages, ...commandItems, ...ofMode('all')],
      commands: commandItems,
      pages,
      stations: ofMode('stations'),
      riders: ofMode('riders'),
    };
  }, [commandItems, pages, loaded]);

  const byKeys = useMemo(() => {
    const of = (items: readonly PaletteItem[]) => new Map(items.map((i) => [i.key, i]));
    return { all: of(localItems.all), commands: of(localItems.commands), pages: of(localItems.pages), stations: of(localItems.stations), riders: of(localItems.riders) };
  }, [localItems]);

  // Small lists are indexed in render; a large one in slices after it (ranking meanwhile over the
  // last ready index and its own pool), so records arriving never block typing.
  const entriesOf = (items: readonly PaletteItem[]): SearchEntry[] =>
    items.map((i) => ({ id: i.key, title: i.title, keywords: [i.subtitle ?? '', ...(i.command?.keywords ?? [])] }));
  const small = localItems.all.length + localItems.stations.length + localItems.riders.length <= 5000;
  const syncReady = useMemo(() => {
    if (!small) return null;
    const make = (items: readonly PaletteItem[]) => createSearcher(buildIndex(entriesOf(items)));
    return {
      items: localItems,
      byKeys,
      searchers: { all: make(localItems.all), commands: make(localItems.commands), pages: make(localItems.pages), stations: make(localItems.stations), riders: make(localItems.riders) },
    };
  }, [localItems, byKeys, small]);
  const [asyncReady, setAsyncReady] = useState<typeof syncReady>(null);
  useEffect(() => {
    if (small) return;
    const ctl = new AbortController();
    const make = async (items: readonly PaletteItem[]) => createSearcher(await buildIndexAsync(entriesOf(items), { signal: ctl.signal }));
    (async () => {
      const searchers = { all: await make(localItems.all), commands: await make(localItems.commands), pages: await make(localItems.pages), stations: await make(localItems.stations), riders: await make(localItems.riders) };
      if (!ctl.signal.aborted) setAsyncReady({ items: localItems, byKeys, searchers });
    })().catch(() => undefined);
    return () => ctl.abort();
  }, [localItems, byKeys, small]);
  const lastReady = useRef<typeof syncReady>(null);
  const ready = syncReady ?? asyncReady ?? lastReady.current;
  useEffect(() => {
    lastReady.current = ready;
  });

  // recentsVersion changes when a row is run or removed: the list is read again from storage then.
  const recents = useMemo(() => (open && recentsVersion >= 0 ? readRecents(login) : []), [login, open, recentsVersion]);
  const boosts = useMemo(() => boostsOf(recents), [recents]);

  const items: PaletteItem[] = useMemo(() => {
    if (step) {
      const arg = step.command.args?.[step.index];
      if (!arg) return [];
      if (arg.kind === 'choice') {
        const opts = step.options ?? [];
        const matches = text
          ? createSearcher(buildIndex(opts.map((o) => ({ id: o.value, title: o.label, keywords: o.keywords }))))(text, { limit: ROWS }).map((m) => opts.find((o) => o.value === m.id))
          : opts.slice(0, ROWS);
        return matches.filter((o): o is ArgOption => !!o).map((o) => ({ key: `option:${o.value}`, title: o.label, group: arg.label }));
      }
      return [{ key: 'arg:accept', title: raw ? `确定：${raw}` : arg.optional ? '跳过（不填）' : `请输入${arg.label}`, group: arg.label }];
    }
    const pool = ready ? ready.items[mode] : [];
    const byKey = ready ? ready.byKeys[mode] : new Map<string, PaletteItem>();
    if (!text && mode === 'all') {
      const recentRows = recents.map((r) => byKey.get(r.key)).filter((i): i is PaletteItem => !!i).map((i) => ({ ...i, group: '最近使用' }));
      return [...recentRows, ...commandItems.filter((c) => !recentRows.some((r) => r.key === c.key))].slice(0, ROWS);
    }
    const sniffed: PaletteItem[] = mode === 'all' ? sniff(text).map(sniffItem) : [];
    if (!text) return pool.slice(0, ROWS);
    const ranked = (ready ? ready.searchers[mode](text, { limit: ROWS, boosts }) : []).map((m) => byKey.get(m.id)).filter((i): i is PaletteItem => !!i);
    const seen = new Set(ranked.map((i) => i.key));
    return [...sniffed, ...ranked, ...remote.filter((r) => !seen.has(r.key))].slice(0, ROWS + sniffed.length);
  }, [step, text, raw, mode, commandItems, recents, ready, boosts, remote]);

  // Results arriving never move a selection the user chose; an untouched one stays on the top row.
  useEffect(() => {
    const top = items[0]?.key ?? '';
    if (!items.some((i) => i.key === selected) || (!userMoved.current && selected !== top)) setSelected(top);
  }, [items, selected]);

  const close = () => {
    setRaw('');
    setStep(null);
    setRemote([]);
    onClose();
    const target = returnFocus.current;
    setTimeout(() => {
      if (target?.isConnected) target.focus();
    }, 0);
  };

  const finish = (item: PaletteItem, values: Record<string, string> = {}) => {
    recordRecent(login, { key: item.key, title: item.title, group: item.group });
    setRecentsVersion((v) => v + 1);
    close();
    if (item.command) item.command.run(ctx, values);
    else item.run?.(ctx);
  };

  const startArgs = async (command: Command, index: number, values: Record<string, string>) => {
    const arg = command.args?.[index];
    if (!arg) return finish(commandItem(command), values);
    setRaw('');
    setStep({ command, index, values, options: null, error: null });
    if (arg.kind === 'choice' && arg.options) {
      const options = await arg.options();
      setStep((s) => (s && s.command === command && s.index === index ? { ...s, options } : s));
    }
  };

  const choose = (key: string) => {
    const item = items.find((i) => i.key === key);
    if (!item || item.disabledReason) return;
    if (step) {
      const arg = step.command.args?.[step.index];
      if (!arg) return;
      const value = key.startsWith('option:') ? key.slice('option:'.length) : raw.trim();
      if (!value && !arg.optional && arg.kind !== 'choice') return setStep({ ...step, error: `请输入${arg.label}` });
      const error = value ? (arg.validate?.(value) ?? null) : null;
      if (error) return setStep({ ...step, error });
      void startArgs(step.command, step.index + 1, { ...step.values, [arg.name]: value });
      return;
    }
    if (item.command?.args?.length) {
      // Typed text after the command becomes the first argument's value, when it is text.
      void startArgs(item.command, 0, {});
      return;
    }
    finish(item);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Backspace' && !raw && step) {
      e.preventDefault();
      // Backspace on an empty input goes back a step; from the first step, back to the list.
      if (step.index === 0) setStep(null);
      else void startArgs(step.command, step.index - 1, step.values);
    } else if (e.key === 'Delete' && e.shiftKey && !step && !text) {
      removeRecent(login, selected);
      setRecentsVersion((v) => v + 1);
    }
  };

  const groups = useMemo(() => {
    const map = new Map<string, PaletteItem[]>();
    for (const i of items) map.set(i.group, [...(map.get(i.group) ?? []), i]);
    return [...map.entries()];
  }, [items]);

  const arg = step?.command.args?.[step.index];

  return (
    <Cmdk.Dialog
      open={open}
      onOpenChange={(o) => (o ? undefined : close())}
      label="命令面板"
      shouldFilter={false}
      value={selected}
      onValueChange={(v) => {
        userMoved.current = true;
        setSelected(v);
      }}
      loop
      overlayClassName="fixed inset-0 z-50 bg-black/30"
      contentClassName="fixed inset-x-0 top-[12vh] z-50 mx-auto w-[min(640px,calc(100vw-1.5rem))] overflow-hidden rounded-lg bg-white shadow-2xl"
    >
      <div className="flex items-center gap-2 border-b border-gray-100 px-4">
        {step && (
          <span className="shrink-0 rounded bg-[var(--theme)]/10 px-2 py-0.5 text-xs text-[var(--theme)]">
            {step.command.title} · {step.index + 1}/{step.command.args?.length}
          </span>
        )}
        <Cmdk.Input
          value={raw}
          onValueChange={(v) => {
            setRaw(v);
            userMoved.current = false;
            if (step?.error) setStep({ ...step, error: null });
          }}
          onKeyDown={onKeyDown}
          placeholder={arg ? `${arg.label}${arg.placeholder ? `，如 ${arg.placeholder}` : ''}` : `${MODE_HINT[mode]}；> 命令  / 页面  # 站点线路  @ 乘客卡片`}
          className="h-12 w-full bg-transparent text-sm outline-none placeholder:text-gray-400"
        />
      </div>
      {step?.error && (
        <p role="alert" className="px-4 pt-2 text-xs text-red-500">
          {step.error}
        </p>
      )}
      <Cmdk.List className="max-h-[60vh] overflow-y-auto p-2">
        <Cmdk.Empty className="px-3 py-6 text-center text-sm text-gray-400">
          {(mode === 'stations' || mode === 'riders') && !localItems[mode].length ? `${MODE_HINT[mode]}模块尚未上线，暂无可搜索的记录` : '没有匹配的结果'}
        </Cmdk.Empty>
        {groups.map(([group, rows]) => (
          <Cmdk.Group key={group} heading={group} className="mb-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-gray-400">
            {rows.map((item) => (
              <Cmdk.Item
                key={item.key}
                value={item.key}
                onSelect={choose}
                disabled={!!item.disabledReason}
                className="flex cursor-pointer items-center gap-3 rounded px-2 py-2 text-sm text-gray-700 data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-50 data-[selected=true]:bg-[var(--theme)]/10 data-[selected=true]:text-[var(--theme)]"
              >
                <span className="min-w-0 flex-1 truncate">
                  {item.title}
                  {(item.subtitle || item.disabledReason) && <span className="ml-2 text-xs text-gray-400">{item.disabledReason ?? item.subtitle}</span>}
                </span>
                {item.hotkey && <kbd className="shrink-0 rounded border border-gray-200 bg-gray-50 px-1.5 text-[11px] text-gray-500">{item.hotkey}</kbd>}
              </Cmdk.Item>
            ))}
          </Cmdk.Group>
        ))}
      </Cmdk.List>
      <div className="flex flex-wrap gap-x-4 border-t border-gray-100 px-4 py-2 text-[11px] text-gray-400">
        <span>↑↓ 选择</span>
        <span>Enter 执行</span>
        <span>Esc 关闭</span>
        {step ? <span>Backspace 上一步</span> : <span>Shift+Delete 移除最近使用</span>}
      </div>
      <div aria-live="polite" className="sr-only">
        {items.length ? `${items.length} 个结果` : '没有结果'}
      </div>
    </Cmdk.Dialog>
  );
}

function sniffItem(s: ReturnType<typeof sniff>[number]): PaletteItem {
  if (s.kind === 'phone') {
    return {
      key: `sniff:phone:${s.value}`,
      title: `按手机号查询：${s.value}`,
      subtitle: '员工账号',
      group: '识别到的号码',
      run: (ctx) => ctx.navigate(`/user/user-list?keyword=${s.value}`),
    };
  }
  if (s.kind === 'citizen-id') {
    return { key: `sniff:id:${s.value}`, title: `查询持卡人：${s.value}`, group: '识别到的号码', disabledReason: '乘客模块尚未上线' };
  }
  return { key: `sniff:card:${s.value}`, title: `查询卡号：${s.value}`, group: '识别到的号码', disabledReason: '卡片模块尚未上线' };
}
