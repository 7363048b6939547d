import { type Romanize, type SearchEntry, buildIndex, createSearcher } from '../../shared/domain/search';
import { type EntityRecord, type EntitySource, RIDER_QUERY_MIN } from './entity-source';
import { keyLabel } from './keys';
import type { Recent } from './recents';
import { type Sniffed, sniff } from './sniff';
import type { ArgOption, Command, PaletteItem } from './types';

// The palette's rows as pure functions of what it knows: no state, no effects, so the component and
// its hooks only decide when to ask.

export const ROWS = 50;

export type Mode = 'all' | 'commands' | 'pages' | 'stations' | 'riders';
/** Records carry the palette mode their source puts them in. */
export type ModedItem = PaletteItem & { mode?: Mode };

export type Pools = Record<Mode, readonly PaletteItem[]>;
/** The ranking over one set of pools: what the rows are computed from. */
export interface ReadyIndex {
  items: Pools;
  byKeys: Record<Mode, Map<string, PaletteItem>>;
  romanized: boolean;
  searchers: Record<Mode, ReturnType<typeof createSearcher>>;
}

/** A command's arguments, asked one at a time: which one, the values so far, its options. */
export interface Step {
  command: Command;
  index: number;
  values: Record<string, string>;
  options: ArgOption[] | null;
  error: string | null;
}

const PREFIX: Record<string, Mode> = { '>': 'commands', '/': 'pages', '#': 'stations', '@': 'riders' };
export const MODE_HINT: Record<Mode, string> = {
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

export const sourceMode = (s: EntitySource): Mode => (s.prefix === '#' ? 'stations' : s.prefix === '@' ? 'riders' : 'all');

export const commandItem = (c: Command): PaletteItem => ({
  key: `command:${c.id}`,
  title: c.title,
  subtitle: c.args?.length ? `${c.group} · 需要输入` : c.group,
  group: '命令',
  hotkey: c.hotkey ? keyLabel(c.hotkey) : undefined,
  command: c,
});

export const recordItem = (r: EntityRecord, group: string): PaletteItem => ({
  key: r.key,
  title: r.title,
  subtitle: r.subtitle,
  group,
  run: (ctx) => {
    r.onOpen?.();
    ctx.navigate(r.path);
  },
  actions: r.actions,
});

export const entriesOf = (items: readonly PaletteItem[]): SearchEntry[] =>
  items.map((i) => ({ id: i.key, title: i.title, keywords: [i.subtitle ?? '', ...(i.command?.keywords ?? [])] }));

/** A step's rows: its options ranked by what is typed, or one row that accepts the typed value. */
export function stepRows(step: Step, text: string, raw: string, romanize: Romanize | null): PaletteItem[] {
  const arg = step.command.args?.[step.index];
  if (!arg) return [];
  if (arg.kind === 'choice') {
    const opts = step.options ?? [];
    const matches = text
      ? createSearcher(buildIndex(opts.map((o) => ({ id: o.value, title: o.label, keywords: o.keywords })), romanize ?? undefined))(text, { limit: ROWS }).map((m) =>
          opts.find((o) => o.value === m.id),
        )
      : opts.slice(0, ROWS);
    return matches.filter((o): o is ArgOption => !!o).map((o) => ({ key: `option:${o.value}`, title: o.label, subtitle: o.subtitle, group: arg.label }));
  }
  return [{ key: 'arg:accept', title: raw ? `确定：${raw}` : arg.optional ? '跳过（不填）' : `请输入${arg.label}`, group: arg.label }];
}

export interface ListQuery {
  mode: Mode;
  text: string;
  ready: ReadyIndex | null;
  recents: readonly Recent[];
  boosts: Map<string, number>;
  commandItems: readonly PaletteItem[];
  /** The server's answers to this query, shown after the local matches they do not repeat. */
  remote: readonly PaletteItem[];
  sources: readonly EntitySource[];
  canOpen(path: string): boolean;
}

/** The list's rows: recents on an empty query, else the typed number's lookups, the ranked matches and the server's. */
export function listRows({ mode, text, ready, recents, boosts, commandItems, remote, sources, canOpen }: ListQuery): PaletteItem[] {
  const pool = ready ? ready.items[mode] : [];
  const byKey = ready ? ready.byKeys[mode] : new Map<string, PaletteItem>();
  if (!text && mode === 'all') {
    const recentRows = recents.map((r) => byKey.get(r.key)).filter((i): i is PaletteItem => !!i).map((i) => ({ ...i, group: '最近使用' }));
    return [...recentRows, ...commandItems.filter((c) => !recentRows.some((r) => r.key === c.key))].slice(0, ROWS);
  }
  const sniffed: PaletteItem[] = mode === 'all' ? sniffedRows(sniff(text), sources, canOpen) : [];
  // Browsing `>` or `/` shows every command or page: both are bounded by the registry (tens), and a
  // cut list would hide the ones registered last. Records are not bounded, so they stay cut.
  if (!text) return mode === 'commands' || mode === 'pages' ? [...pool] : pool.slice(0, ROWS);
  const ranked = (ready ? ready.searchers[mode](text, { limit: ROWS, boosts }) : []).map((m) => byKey.get(m.id)).filter((i): i is PaletteItem => !!i);
  const seen = new Set(ranked.map((i) => i.key));
  return [...sniffed, ...ranked, ...remote.filter((r) => !seen.has(r.key))].slice(0, ROWS + sniffed.length);
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

export function emptyMessage(mode: Mode, text: string, records: number, sources: readonly EntitySource[], canOpen: (path: string) => boolean): string {
  // Riders and cards are never listed whole: `@` searches the server once enough is typed.
  if (mode === 'riders' && sources.some((s) => s.prefix === '@' && s.query)) {
    return text.replace(/[\s-]/g, '').length < RIDER_QUERY_MIN ? `输入至少 ${RIDER_QUERY_MIN} 位卡号、手机号、身份证号或姓名查询乘客与卡片` : '没有匹配的乘客或卡片';
  }
  if ((mode === 'stations' || mode === 'riders') && !records) return `当前账号没有可搜索的${MODE_HINT[mode]}记录`;
  const numbers = sniff(text).filter((s) => s.kind === 'card' || s.kind === 'citizen-id');
  // A card or id nobody here can look up: say why, rather than "no match".
  const lookedUp = (n: Sniffed) => sources.some((src) => {
    const r = src.lookup?.(n);
    return !!r && canOpen(r.path);
  });
  if (numbers.length && !numbers.some(lookedUp)) return '当前账号没有卡片与乘客查询权限，不能按卡号或身份证号查询';
  return '没有匹配的结果';
}
