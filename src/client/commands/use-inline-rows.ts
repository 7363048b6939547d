import { type RecordActions, type ResourceAction, inlineCall } from '../components/resource/row-action';
import type { Mode, ReadyIndex } from './palette-rows';
import { typedArgument } from './typed-argument';
import type { PaletteItem } from './types';

/** Enough to choose from; more means the rest of the query should name the record. */
const INLINE_ROWS = 8;

interface Deps {
  mode: Mode;
  text: string;
  ready: ReadyIndex | null;
  actionsOf(item: PaletteItem): RecordActions | undefined;
  /** The record's actions this account may take on it now (usePanelRows). */
  availableOf(rec: RecordActions): ResourceAction<unknown>[];
}

/**
 * Record and value in one query (issue 21): `2026-12-20 06:00` offers 设置上线时间 for each version
 * that may be scheduled, `2026-10 10路` the line's month export. Each row states the whole change,
 * so Enter on it is the decision; what the rest of the query says narrows the records by the
 * palette's own ranking (pinyin too), and with nothing else typed every record the value fits is offered.
 */
export function useInlineRows({ mode, text, ready, actionsOf, availableOf }: Deps): PaletteItem[] {
  const arg = mode === 'all' ? typedArgument(text) : null;
  if (!arg || !ready) return [];
  // Recomputed with each render: the records' rows as last fetched and this render's grants decide.
  const pool = arg.rest ? ready.searchers.all(arg.rest, { limit: 50 }).flatMap((m) => ready.byKeys.all.get(m.id) ?? []) : ready.items.all;
  const rows: PaletteItem[] = [];
  for (const item of pool) {
    const rec = item.actions && actionsOf(item);
    if (!rec) continue;
    for (const action of availableOf(rec)) {
      if (action.inline?.kind !== arg.kind) continue;
      const call = inlineCall(action, action.inline, arg.value, rec.row);
      rows.push({
        key: `inline:${item.key}:${action.id}:${arg.value}`,
        title: action.inline.title(rec.row, arg.value),
        subtitle: [item.title, item.subtitle].filter(Boolean).join(' · '),
        group: '按输入执行',
        inline: { rec, action: call },
      });
    }
    if (rows.length > INLINE_ROWS) break;
  }
  // A value alone fits one record, or the rest of the query must say which: never an arbitrary first of several.
  return !arg.rest && rows.length > 1 ? [] : rows.slice(0, INLINE_ROWS);
}
