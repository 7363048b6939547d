import { type RefObject, useContext, useEffect, useMemo, useRef } from 'react';
import { type Romanize, buildIndex, createSearcher } from '../../shared/domain/search';
import {
  type ChooseAction,
  type RecordActions,
  type ResourceAction,
  availableActions,
  dialogPath,
  handRow,
  isCall,
  isChoose,
  isDialog,
  isGo,
  textOf,
} from '../components/resource/row-action';
import { useActionRunner } from '../components/resource/row-actions';
import { useNoAreaChosen } from '../lib/current-user';
import { GrantsContext } from '../lib/permission';
import { byUse, readActionUse, recordActionUse } from './action-use';
import { keyLabel } from './keys';
import { ROWS } from './palette-rows';
import type { CommandContext, PaletteItem } from './types';
import type { EnterQueue } from './use-enter-queue';

// Raycast's action panel: Tab or → on a record found in the palette lists what may be done with it
// (its resource's declared row actions, for this account and this row), Enter runs one through the
// same runner as the table's buttons, and ←, Esc or Backspace go back to the results. What it runs
// outlives the palette: the question naming the record, the toast with 撤销, the page's dialog.

/**
 * The record whose actions show, with its row as it was when the panel opened (what the panel
 * shows is what Enter runs, whatever answer arrives meanwhile), and the list as it was, for the way back.
 */
export interface Panel {
  item: PaletteItem;
  rec: RecordActions;
  back: { raw: string; selected: string };
}

const ACTION_KEY = 'action:';

/** How an action's key is pressed in the palette: Alt with it (the input takes the letter alone). */
export const actionChord = (hotkey: string) => `Alt+${keyLabel(hotkey).toUpperCase()}`;

interface RecordActionsDeps {
  panel: Panel | null;
  login: string;
  canOpen(path: string): boolean;
  romanize: Romanize | null;
  /** The record and actions of a row as last fetched. */
  actionsOf(item: PaletteItem): RecordActions | undefined;
  /** What is typed while the panel shows: it narrows the actions. */
  filter: string;
}

/** Which actions a record offers this account now, and the panel's rows for the record it shows. */
export function usePanelRows({ panel, login, canOpen, romanize, actionsOf, filter }: RecordActionsDeps) {
  const grants = useContext(GrantsContext);
  const acrossAll = useNoAreaChosen();
  const availableOf = (rec: RecordActions): ResourceAction<unknown>[] =>
    // A dialog on a page the account cannot open is never offered: no action leads to /404.
    availableActions(rec.resource, rec.row, grants, { login, acrossAll }).filter((a) => (isDialog(a) ? canOpen(dialogPath(rec.resource, a, rec.row)) : isGo(a) ? canOpen(a.to(rec.row)) : true));
  const available = (item: PaletteItem): ResourceAction<unknown>[] => {
    const rec = actionsOf(item);
    return rec ? availableOf(rec) : [];
  };
  // Most used first, for this account. The chords of the highlighted result read the counts as they
  // are drawn; an open panel keeps the order it opened with, so nothing moves under the highlight.
  const use = readActionUse(login);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const panelUse = useMemo(() => readActionUse(login), [login, panel]);
  const shown = panel ? byUse(availableOf(panel.rec), panel.item.key, panelUse) : null;
  const shownKey = shown?.map((a) => a.id).join(' ');
  const rows = useMemo((): PaletteItem[] => {
    const rec = panel?.rec;
    if (!panel || !rec || !shown) return [];
    const group = `${panel.item.title} · 操作`;
    const items = shown.map((a): PaletteItem => ({
      key: `${ACTION_KEY}${a.id}`,
      title: textOf(a.label, rec.row),
      subtitle: isCall(a) ? (a.confirm ? '先确认' : a.undo ? '可撤销' : undefined) : isGo(a) ? '打开页面' : isChoose(a) ? '需要选择' : '打开对话框',
      group,
      // The palette's input takes plain letters: here an action's key goes with Alt.
      hotkey: a.hotkey ? actionChord(a.hotkey) : undefined,
    }));
    if (!filter) return items;
    const search = createSearcher(buildIndex(items.map((i) => ({ id: i.key, title: i.title })), romanize ?? undefined));
    return search(filter, { limit: ROWS }).flatMap((m) => items.filter((i) => i.key === m.id));
    // `shown` is recomputed each render (grants, menus); its ids say when it changed. The row is the panel's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [panel, shownKey, filter, romanize]);
  return {
    rows,
    /** The actions of the row the panel froze: what Enter may run. */
    availableOf,
    /** Whether a row has actions to show: its hint (Tab 操作), and whether Tab opens anything. */
    hasActions: (item: PaletteItem) => !!item.actions && available(item).length > 0,
    /** The actions a record runs with Alt and their key, as its highlighted row shows them (`Alt+S 停用`). */
    chordsOf(item: PaletteItem): string[] {
      const rec = item.actions ? actionsOf(item) : undefined;
      return rec ? byUse(availableOf(rec), item.key, use).flatMap((a) => (a.hotkey ? [`${actionChord(a.hotkey)} ${textOf(a.label, rec.row)}`] : [])) : [];
    },
  };
}

interface ControlDeps {
  /** Whose action counts the runs go to. */
  login: string;
  panel: Panel | null;
  setPanel(panel: Panel | null): void;
  rows: ReturnType<typeof usePanelRows>;
  actionsOf(item: PaletteItem): RecordActions | undefined;
  /** The results (not the panel's rows): what Tab opens a record of. */
  listItems: readonly PaletteItem[];
  /** A command's argument is asked: Tab and → are the input's. */
  stepping: boolean;
  raw: string;
  setRaw(raw: string): void;
  setSelected(key: string): void;
  userMoved: RefObject<boolean>;
  queue: EnterQueue;
  /** Every list the query can match has arrived. */
  settled: boolean;
  /** The row Enter (or Tab) takes: the user's choice, else the top one. */
  pick(): string | undefined;
  /** Closes the palette (the panel with it). */
  close(): void;
  recordRecent(item: PaletteItem): void;
  /** An action that needs one more record: the palette asks for it as a step instead of closing. */
  startChoice(action: ChooseAction<unknown>, row: unknown, name: string, back: Panel['back']): void;
  ctx: CommandContext;
}

/** Opening a record's actions, going back, the keys for both, and running the one chosen. */
export function usePanelControl(d: ControlDeps) {
  const { panel, setPanel, raw, setRaw, userMoved } = d;
  const runner = useActionRunner();
  /** Shows a record's actions, the list kept for the way back. False when it has none. */
  const open = (key: string | undefined): boolean => {
    const item = d.listItems.find((i) => i.key === key);
    const rec = item && d.actionsOf(item);
    if (!item || !rec || d.stepping || !d.rows.hasActions(item)) return false;
    setPanel({ item, rec, back: { raw, selected: item.key } });
    setRaw('');
    userMoved.current = false;
    return true;
  };
  const back = () => {
    setPanel(null);
    if (!panel) return;
    setRaw(panel.back.raw);
    // The record stays highlighted, as the user left it.
    userMoved.current = true;
    d.setSelected(panel.back.selected);
  };
  useEscapeGoesBack(!!panel, back);

  /** Runs the chosen action of the panel's record once the palette has closed: on the row the panel showed. */
  const run = (from: Panel, key: string) => {
    const rec = from.rec;
    const action = d.rows.availableOf(rec).find((a) => `${ACTION_KEY}${a.id}` === key);
    if (!action) return;
    if (isDialog(action)) {
      // The page takes the row as found here, and opens its dialog for it.
      handRow(action.opens, rec.resource.id(rec.row), rec.row);
      d.ctx.navigate(dialogPath(rec.resource, action, rec.row));
    } else if (isGo(action)) d.ctx.navigate(action.to(rec.row));
    else if (isCall(action)) runner.start(action, rec.row, rec.resource.name);
  };

  const runFrom = (from: Panel, key: string) => {
    recordActionUse(d.login, from.item.key, key.slice(ACTION_KEY.length));
    const choose = d.rows.availableOf(from.rec).filter(isChoose).find((a) => `${ACTION_KEY}${a.id}` === key);
    if (choose) {
      // The palette stays: the step asks for the other record, and the way back is the results.
      setPanel(null);
      d.startChoice(choose, from.rec.row, from.rec.resource.name(from.rec.row), from.back);
      return;
    }
    d.recordRecent(from.item);
    d.close();
    // In the next task, as a command runs: the question must not take this Enter's activation.
    setTimeout(() => run(from, key), 0);
  };
  /**
   * Alt and an action's own key (the one it has on a table's focused row) runs that action of the
   * highlighted record, or of the record whose actions show, without opening them first.
   */
  const chord = (e: React.KeyboardEvent<HTMLInputElement>): boolean => {
    if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || d.stepping || !/^Key[A-Z]$/.test(e.code)) return false;
    const letter = e.code.slice(3).toLowerCase();
    const item = panel ? panel.item : d.listItems.find((i) => i.key === d.pick());
    const rec = panel ? panel.rec : item && d.actionsOf(item);
    if (!item || !rec) return false;
    const action = d.rows.availableOf(rec).find((a) => a.hotkey === letter);
    if (!action) return false;
    e.preventDefault();
    runFrom(panel ?? { item, rec, back: { raw, selected: item.key } }, `${ACTION_KEY}${action.id}`);
    return true;
  };

  return {
    open,
    /** Enter on a record-and-value row (use-inline-rows): the palette closes, then the call runs as a button's would. */
    runInline(inline: NonNullable<PaletteItem['inline']>) {
      d.close();
      setTimeout(() => runner.start(inline.action, inline.rec.row, inline.rec.resource.name), 0);
    },
    /** Enter on an action: the palette closes, then it runs (a question, a toast, a page). */
    choose(key: string) {
      if (panel) runFrom(panel, key);
    },
    /** Tab, → and ← between the results and a record's actions, and Alt+key for one of them. True when the key was theirs. */
    keys(e: React.KeyboardEvent<HTMLInputElement>): boolean {
      if (chord(e)) return true;
      const input = e.currentTarget;
      const plainTab = e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey;
      if (panel) {
        const atStart = input.selectionStart === 0 && input.selectionEnd === 0;
        if ((e.key === 'ArrowLeft' && atStart) || (e.key === 'Tab' && e.shiftKey) || (e.key === 'Backspace' && !raw)) {
          e.preventDefault();
          back();
          return true;
        }
        // Tab again stays in the panel.
        if (plainTab) e.preventDefault();
        return plainTab;
      }
      const atEnd = input.selectionStart === raw.length && input.selectionEnd === raw.length;
      if (d.stepping || !(plainTab || (e.key === 'ArrowRight' && atEnd && !e.shiftKey))) return false;
      // An Enter already waits for the results: it chooses the row; a Tab behind it has nothing to open.
      if (d.queue.pending.queued) {
        if (plainTab) e.preventDefault();
        return plainTab;
      }
      // Typed ahead of the results: the Tab waits for them, as an Enter does, and opens the top row's actions.
      if (plainTab && !d.settled && !userMoved.current) {
        e.preventDefault();
        d.queue.hold('tab');
        return true;
      }
      if (!open(d.pick())) return false;
      e.preventDefault();
      return true;
    },
    dialog: runner.dialog,
  };
}

/**
 * Esc while the panel shows goes back to the results instead of closing the palette. The dialog
 * (Radix) listens on the document's capture phase; this listens before it, on the window's, and
 * marks the key handled so the dialog leaves it.
 */
export function useEscapeGoesBack(active: boolean, back: () => void) {
  const run = useRef(back);
  run.current = back;
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.isComposing) return;
      e.preventDefault();
      run.current();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [active]);
}
