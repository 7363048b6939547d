import { Command as Cmdk } from 'cmdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type SearchEntry, buildIndex, buildIndexAsync, createSearcher } from '../../shared/domain/search';
import { holdsPersonalNumber } from '../../shared/domain/mask';
import { useRomanize } from '../lib/use-romanize';
import type { EntityRecord, EntitySource } from './entity-source';
import { boostsOf, readRecents, recordRecent, removeRecent } from './recents';
import { type Sniffed, sniff } from './sniff';
import { keyLabel } from './keys';
import type { ArgOption, Command, CommandContext, PaletteItem } from './types';

const ROWS = 50;
const DEBOUNCE_MS = 150;
/** An Enter typed before the records and the dictionary arrived waits for them this long at most. */
const ENTER_WAIT_MS = 3000;

/** Keys that move the selection in cmdk: only these (and the pointer) make it the user's choice. */
const MOVE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End']);

type Mode = 'all' | 'commands' | 'pages' | 'stations' | 'riders';
/** Records carry the palette mode their source puts them in. */
type ModedItem = PaletteItem & { mode?: Mode };

type Pools = Record<Mode, readonly PaletteItem[]>;
/** The ranking over one set of pools: what the rows are computed from. */
interface ReadyIndex {
  items: Pools;
  byKeys: Record<Mode, Map<string, PaletteItem>>;
  romanized: boolean;
  searchers: Record<Mode, ReturnType<typeof createSearcher>>;
}
const PREFIX: Record<string, Mode> = { '>': 'commands', '/': 'pages', '#': 'stations', '@': 'riders' };
const MODE_HINT: Record<Mode, string> = {
  all: '搜索页面、命令和记录（拼音或首字母均可）',
  commands: '命令',
  pages: '页面',
  stations: '站点、线路与版本',
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
  /** Typed before the palette could open (type-ahead): the opening query, and whether Enter followed. */
  seed?: { text: string; enter: boolean } | null;
  onClose(): void;
  login: string;
  commands: readonly Command[];
  pages: readonly PaletteItem[];
  sources: readonly EntitySource[];
  /**
   * Whether the account may open the page at this path (its menus hold it). Every record row is
   * checked by its own `path`, whatever its source declared: a row never leads to /404.
   */
  canOpen(path: string): boolean;
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
  run: (ctx) => {
    r.onOpen?.();
    ctx.navigate(r.path);
  },
});

/**
 * Ctrl+K: one palette over pages, commands and records. cmdk is only the shell (no filtering of
 * its own); ranking is `shared/domain/search` over an index built once per list.
 */
export function Palette({ open, seed, onClose, login, commands, pages, sources, canOpen, ctx }: PaletteProps) {
  const { romanize, done: dictionarySettled } = useRomanize();
  // Read by timers that outlive a render: is the palette open right now?
  const openRef = useRef(open);
  openRef.current = open;
  // Read when records arrive, which may be after a render with newer menus.
  const canOpenRef = useRef(canOpen);
  canOpenRef.current = canOpen;
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
  // Enter pressed while records or the dictionary were still on their way: run when they arrive.
  const [enterQueued, setEnterQueued] = useState(false);
  const [enterWaitOver, setEnterWaitOver] = useState(false);
  const typedAfterEnter = useRef('');
  // The queue as the key handlers see it at once: the render that clears `enterQueued` may come after
  // the next keystroke, whose handler would still hold the old state.
  const queued = useRef(false);
  // An Enter typed after the argument's keys, while the first Enter waited: submits that argument.
  const enterAfter = useRef(false);
  // The queue has handed typed keys to a command's argument, and the step showing them is not drawn yet.
  const argHanded = useRef(false);
  const [loadsPending, setLoadsPending] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    userMoved.current = false;
    setSelected('');
    // Closing cleared the query; only a type-ahead seed fills it here, so keys typed into the input
    // before this effect ran are never wiped.
    if (seed) {
      setRaw(seed.text);
      setEnterQueued(seed.enter);
      queued.current = seed.enter;
    }
    // `seed` is read once per opening: it is what was typed before this opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // Records of `load` sources: fetched when the palette opens, ranked locally with pinyin.
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
  }, [open, sources]);

  // `query` sources: debounced, and an answer to an older query is dropped when it arrives late.
  const generation = useRef(0);
  // A query waiting for its debounce or its answers: the list says it is busy meanwhile.
  const [remotePending, setRemotePending] = useState(false);
  useEffect(() => {
    // A phone, citizen id or card number goes only to the sources that look numbers up in a body.
    const querying = sources.filter((s) => s.query && (mode === 'all' || sourceMode(s) === mode) && (s.takesNumbers || !holdsPersonalNumber(text)));
    if (!open || step || text.length < 2 || !querying.length || mode === 'commands' || mode === 'pages') {
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
  // While the palette is closed (lists arriving after a lookup's Enter), indexing waits for an idle
  // moment: pinyin for 2,000 names took the main thread for 300 ms, just when the card view painted.
  const [idleIndexing, setIdleIndexing] = useState(false);
  const built = useRef<{ items: typeof localItems; romanize: typeof romanize; value: ReadyIndex } | null>(null);
  const fresh = built.current?.items === localItems && built.current.romanize === romanize;
  useEffect(() => {
    if (open || !small || fresh) return;
    setIdleIndexing(false);
    const whenIdle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 500));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const id = whenIdle(() => setIdleIndexing(true), { timeout: 3_000 });
    return () => cancel(id);
  }, [open, small, fresh]);
  const syncReady = useMemo((): ReadyIndex | null => {
    if (!small) return null;
    if (fresh || (!open && !idleIndexing)) return built.current?.value ?? null;
    const make = (items: readonly PaletteItem[]) => createSearcher(buildIndex(entriesOf(items), romanize ?? undefined));
    const value = {
      items: localItems,
      byKeys,
      romanized: !!romanize,
      searchers: { all: make(localItems.all), commands: make(localItems.commands), pages: make(localItems.pages), stations: make(localItems.stations), riders: make(localItems.riders) },
    };
    built.current = { items: localItems, romanize, value };
    return value;
    // `fresh` and `built` follow localItems and romanize; entriesOf is pure.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [localItems, byKeys, small, romanize, open, idleIndexing]);
  const [asyncReady, setAsyncReady] = useState<ReadyIndex | null>(null);
  useEffect(() => {
    if (small) return;
    const ctl = new AbortController();
    const make = async (items: readonly PaletteItem[]) =>
      createSearcher(await buildIndexAsync(entriesOf(items), { signal: ctl.signal, romanize: romanize ?? undefined }));
    (async () => {
      const searchers = { all: await make(localItems.all), commands: await make(localItems.commands), pages: await make(localItems.pages), stations: await make(localItems.stations), riders: await make(localItems.riders) };
      if (!ctl.signal.aborted) setAsyncReady({ items: localItems, byKeys, romanized: !!romanize, searchers });
    })().catch(() => undefined);
    return () => ctl.abort();
  }, [localItems, byKeys, small, romanize]);
  const lastReady = useRef<ReadyIndex | null>(null);
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
          ? createSearcher(buildIndex(opts.map((o) => ({ id: o.value, title: o.label, keywords: o.keywords })), romanize ?? undefined))(text, { limit: ROWS }).map((m) =>
              opts.find((o) => o.value === m.id),
            )
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
    const sniffed: PaletteItem[] = mode === 'all' ? sniffedRows(sniff(text), sources, canOpen) : [];
    if (!text) return pool.slice(0, ROWS);
    const ranked = (ready ? ready.searchers[mode](text, { limit: ROWS, boosts }) : []).map((m) => byKey.get(m.id)).filter((i): i is PaletteItem => !!i);
    const seen = new Set(ranked.map((i) => i.key));
    return [...sniffed, ...ranked, ...remote.filter((r) => !seen.has(r.key))].slice(0, ROWS + sniffed.length);
  }, [step, text, raw, mode, commandItems, recents, ready, boosts, remote, sources, canOpen, romanize]);

  // Results arriving never move a selection the user chose; an untouched one stays on the top row.
  useEffect(() => {
    const top = items[0]?.key ?? '';
    if (!items.some((i) => i.key === selected) || (!userMoved.current && selected !== top)) setSelected(top);
  }, [items, selected]);

  // The highlighted row is always in view: Enter never runs a row the user cannot see.
  useEffect(() => {
    const list = listRef.current;
    if (!list || !selected) return;
    // cmdk names the active row for screen readers only after its own keyboard moves (a controlled
    // value never updates it), so the input's aria-activedescendant is kept here.
    const row = [...list.querySelectorAll<HTMLElement>('[cmdk-item]')].find((el) => el.getAttribute('data-value') === selected);
    const input = list.closest('[cmdk-root]')?.querySelector('[cmdk-input]');
    if (row?.id) input?.setAttribute('aria-activedescendant', row.id);
    else input?.removeAttribute('aria-activedescendant');
    if (!userMoved.current && selected === items[0]?.key) list.scrollTop = 0;
    else list.querySelector('[cmdk-item][data-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected, items]);

  const close = () => {
    setRaw('');
    setStep(null);
    setRemote([]);
    // An Enter still waiting for results belongs to this opening only.
    setEnterQueued(false);
    setEnterWaitOver(false);
    typedAfterEnter.current = '';
    queued.current = false;
    enterAfter.current = false;
    argHanded.current = false;
    onClose();
    const target = returnFocus.current;
    const from = window.location.href;
    // A row that navigated leaves focus to the new page (its main region); otherwise it goes back.
    // Not if the palette is open again by then: Chromium may run a fast Ctrl+K and the keys after it
    // before this timer, and taking focus back out of the new opening would swallow them.
    setTimeout(() => {
      if (!openRef.current && target?.isConnected && window.location.href === from) target.focus();
    }, 0);
  };

  const finish = (item: PaletteItem, values: Record<string, string> = {}) => {
    recordRecent(login, { key: item.key, title: item.title, group: item.group });
    setRecentsVersion((v) => v + 1);
    close();
    // In the next task, not inside the Enter's keydown: a dialog the command opens would otherwise
    // take focus before that same Enter's activation, which then presses the dialog's first button.
    setTimeout(() => {
      if (item.command) item.command.run(ctx, values);
      else item.run?.(ctx);
    }, 0);
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

  // Everything the query can match has arrived: the records of this opening and the dictionary.
  const settled = loadsPending === 0 && dictionarySettled && !!ready && ready.items === localItems && ready.romanized === !!romanize;
  useEffect(() => {
    if (!enterQueued || !open) return;
    if (!settled && !enterWaitOver) {
      const timer = setTimeout(() => setEnterWaitOver(true), ENTER_WAIT_MS);
      return () => clearTimeout(timer);
    }
    setEnterQueued(false);
    setEnterWaitOver(false);
    queued.current = false;
    const key = userMoved.current ? selected : items[0]?.key;
    const after = typedAfterEnter.current;
    typedAfterEnter.current = '';
    const asksNext = !!items.find((i) => i.key === key)?.command?.args?.length;
    if (key) choose(key);
    // A command that asks for an argument now has the keys typed meanwhile as its input.
    if (after && asksNext) {
      setRaw(after);
      argHanded.current = true;
    } else enterAfter.current = false;
    // `choose` is recreated each render; the queue runs once, when the results settle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enterQueued, settled, enterWaitOver, open]);

  // The second Enter of `command Enter argument Enter` typed ahead: once the step shows the argument.
  useEffect(() => {
    if (step) argHanded.current = false;
    if (!enterAfter.current || !step || !raw) return;
    enterAfter.current = false;
    choose('arg:accept');
    // `choose` is recreated each render; this runs once, when the step and its text are in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step, raw]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (MOVE_KEYS.has(e.key) || (e.ctrlKey && ['n', 'p', 'j', 'k'].includes(e.key))) userMoved.current = true;
    // An Enter that confirms an IME composition is the input method's, never a row's.
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    if (e.key === 'Enter' && (queued.current || enterQueued)) {
      // An Enter after keys typed behind a waiting Enter: it submits those keys as the argument.
      e.preventDefault();
      if (typedAfterEnter.current || argHanded.current) enterAfter.current = true;
      return;
    }
    // A typed number's lookup row (a card, a phone, a citizen id) is first whatever else arrives:
    // the agent's Enter opens it at once, without waiting for the palette's record lists.
    const lookupFirst = !userMoved.current && !!items[0]?.key.startsWith('sniff:') && !items[0].disabledReason;
    if (e.key === 'Enter' && !step && !settled && !lookupFirst) {
      // Typed ahead of the results: the row is chosen when they are in, not from a partial list.
      e.preventDefault();
      queued.current = true;
      setEnterQueued(true);
      return;
    }
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
      // cmdk also reports its own automatic selection here, so only keys and the pointer mark a move.
      onValueChange={setSelected}
      loop
      overlayClassName="fixed inset-0 z-50 bg-black/30"
      contentClassName="fixed inset-x-0 top-[12vh] z-50 mx-auto w-[min(640px,calc(100vw-1.5rem))] overflow-hidden rounded-lg bg-white shadow-2xl"
    >
      <div className="flex items-center gap-2 border-b border-gray-100 px-4">
        {step && (
          <span className="shrink-0 rounded bg-[var(--theme)]/10 px-2 py-0.5 text-xs text-[var(--theme-strong)]">
            {step.command.title} · {step.index + 1}/{step.command.args?.length}
          </span>
        )}
        <Cmdk.Input
          autoFocus
          value={raw}
          onValueChange={(v) => {
            // Typed after an Enter that waits for results: the Enter chooses from the query as it was,
            // and these keys belong to what comes next (a command's first argument).
            if (queued.current) {
              if (v.startsWith(raw)) typedAfterEnter.current += v.slice(raw.length);
              else typedAfterEnter.current = typedAfterEnter.current.slice(0, -1);
              return;
            }
            if (enterQueued) {
              // The queue has just run but this handler is from before it: the key follows the text
              // the queue handed to the argument.
              const added = v.startsWith(raw) ? v.slice(raw.length) : null;
              setRaw((r) => (added === null ? r.slice(0, -1) : r + added));
              return;
            }
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
        <p role="alert" className="px-4 pt-2 text-xs text-red-600">
          {step.error}
        </p>
      )}
      <Cmdk.List
        ref={listRef}
        label="搜索结果"
        // Records, the dictionary or a server search still on their way: the rows may yet change.
        aria-busy={!step && (!settled || remotePending)}
        className="max-h-[60vh] overflow-y-auto p-2"
        onPointerMove={() => (userMoved.current = true)}
      >
        <Cmdk.Empty className="px-3 py-6 text-center text-sm text-gray-500">
          {emptyMessage(mode, text, localItems[mode].length, sources, canOpen)}
        </Cmdk.Empty>
        {groups.map(([group, rows]) => (
          <Cmdk.Group key={group} heading={group} className="mb-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-gray-500">
            {rows.map((item) => (
              <Cmdk.Item
                key={item.key}
                value={item.key}
                onSelect={choose}
                disabled={!!item.disabledReason}
                className="flex cursor-pointer items-center gap-3 rounded px-2 py-2 text-sm text-gray-700 data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-50 data-[selected=true]:bg-[var(--theme)]/10 data-[selected=true]:text-[var(--theme-strong)]"
              >
                <span className="min-w-0 flex-1 truncate">
                  {item.title}
                  {(item.subtitle || item.disabledReason) && <span className="ml-2 text-xs text-gray-600">{item.disabledReason ?? item.subtitle}</span>}
                </span>
                {item.hotkey && <kbd className="shrink-0 rounded border border-gray-200 bg-gray-50 px-1.5 text-[11px] text-gray-500">{item.hotkey}</kbd>}
              </Cmdk.Item>
            ))}
          </Cmdk.Group>
        ))}
      </Cmdk.List>
      <div className="flex flex-wrap gap-x-4 border-t border-gray-100 px-4 py-2 text-[11px] text-gray-500">
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

/** Rows for a typed number: one per source that can look it up, plus a warning for a bad id. */
function sniffedRows(found: readonly Sniffed[], sources: readonly EntitySource[], canOpen: (path: string) => boolean): PaletteItem[] {
  const group = '识别到的号码';
  return found.flatMap((s): PaletteItem[] => {
    if (s.kind === 'bad-citizen-id') return [{ key: `sniff:bad-id:${s.value}`, title: `身份证号：${s.value}`, group, disabledReason: '校验位不正确，请核对号码' }];
    return sources.flatMap((src) => {
      const r = src.lookup?.(s);
      return r && canOpen(r.path) ? [{ ...recordItem(r, group), key: `sniff:${r.key}` }] : [];
    });
  });
}

function emptyMessage(mode: Mode, text: string, records: number, sources: readonly EntitySource[], canOpen: (path: string) => boolean): string {
  if ((mode === 'stations' || mode === 'riders') && !records) return `${MODE_HINT[mode]}模块尚未上线，暂无可搜索的记录`;
  const numbers = sniff(text).filter((s) => s.kind === 'card' || s.kind === 'citizen-id');
  // A card or id nobody here can look up: say why, rather than "no match".
  const lookedUp = (n: Sniffed) => sources.some((src) => {
    const r = src.lookup?.(n);
    return !!r && canOpen(r.path);
  });
  if (numbers.length && !numbers.some(lookedUp)) return '卡片与乘客查询尚未上线，暂不能按卡号或身份证号查询';
  return '没有匹配的结果';
}
