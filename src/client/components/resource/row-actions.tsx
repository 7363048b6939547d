import { type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { isAllowed } from '../../../shared/api';
import { useCurrentUser, useNoAreaChosen } from '../../lib/current-user';
import { newestOwn, rememberOwn } from '../../lib/own-versions';
import { GrantsContext } from '../../lib/permission';
import { useRevalidate } from '../../lib/revalidate';
import { useScreenActions } from '../../lib/screen-action';
import { toast } from '../../lib/toast';
import { Button } from '../button';
import { ConfirmDialog } from '../confirm-dialog';
import {
  type CallAction,
  type DialogsOf,
  type Resource,
  type ResourceAction,
  type RowAction,
  type Who,
  isCall,
  isChoose,
  isDialog,
  isGo,
  requestChoice,
  takeHandedRow,
  textOf,
} from './row-action';

export { type CallAction, type OpenAction, type RowAction, callAction } from './row-action';

/** Keys the table itself uses on a row: an action may not take them. */
export const TABLE_KEYS = new Set(['j', 'k', 'x', ' ', 'enter', 'escape', 'home', 'end', 'pageup', 'pagedown', '/']);

export const UNDO_MS = 10_000;

/** The one way back offered now: Ctrl+Z takes it while its toast shows. */
let offered: { run(): void; until: number } | null = null;
function offerUndo(text: string, run: () => void) {
  offered = { run, until: Date.now() + UNDO_MS };
  toast.action(text, { label: '撤销 (Ctrl+Z)', run: () => takeUndo() });
}
function takeUndo(): boolean {
  const o = offered;
  offered = null;
  if (!o || o.until < Date.now()) return false;
  o.run();
  return true;
}

/** Ctrl+Z outside a text field takes back the last undoable action of the last 10 s. */
function useUndoKey() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z' || e.shiftKey || e.altKey) return;
      const t = e.target instanceof HTMLElement ? e.target : null;
      if (t?.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return;
      if (offered && takeUndo()) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/** What a question says. */
interface Question {
  title: string;
  confirmLabel: string;
  danger: boolean;
  irreversible?: boolean;
  closeOnRefusal?: boolean;
  body: ReactNode;
}

/**
 * A question on screen: the action asked (by id) about its rows. Its texts, and the call confirmed
 * with its toast, come from the action's current declaration when the runner is given one (a
 * table's useRowActions), not from the one the key pressed: a name still loading then (a sub-line's
 * district) appears when it arrives, as it would in a page's own dialog.
 */
interface Asking {
  id: string;
  question(current: CallAction<never> | undefined): Question;
  go(current: CallAction<never> | undefined): Promise<boolean>;
}

const dangerOf = <R,>(a: { danger?: boolean | ((row: R) => boolean) }, row: R) => (typeof a.danger === 'function' ? a.danger(row) : !!a.danger);

/**
 * What runs a call action, wherever it was chosen (a row's button, its hotkey, the bulk bar, the
 * palette under a record): busy state, the question naming the record, the success toast, 撤销 with
 * Ctrl+Z, and the refetch of what changed. Render `dialog` once. `current`: the actions as this
 * render declares them, which a question on screen reads (Asking).
 */
export function useActionRunner(current: readonly RowAction<never>[] = []) {
  const revalidate = useRevalidate();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  useUndoKey();

  const run = async <R,>(action: CallAction<R>, rows: readonly R[]): Promise<boolean> => {
    if (busyRef.current) return false;
    busyRef.current = true;
    setBusy(true);
    let ok = 0;
    try {
      for (const row of rows) {
        const answer = await action.run(row);
        rememberOwn(action.endpoint, answer);
        ok++;
        if (action.undo && rows.length === 1) {
          const undo = action.undo;
          offerUndo(action.done(row), () => {
            // From the version the change made, or one this console's own saves made since.
            void undo.run(row, newestOwn(action.endpoint, answer)).then((back) => {
              rememberOwn(undo.endpoint, back);
              toast.success(undo.done(row));
              void revalidate(undo.endpoint);
            }, () => undefined);
          });
        } else if (rows.length === 1) {
          // An action whose own toasts say it (an export's task) says nothing here.
          const said = action.done(row);
          if (said) toast.success(said);
        }
      }
      if (rows.length > 1) toast.success(`${textOf(action.label, rows[0]!)}：已完成 ${ok} 项`);
      return true;
    } catch {
      // The HTTP client has shown the refusal; a dialog stays open for another try or Esc.
      if (ok && rows.length > 1) toast.info(`已完成 ${ok} 项，其余未处理`);
      return false;
    } finally {
      busyRef.current = false;
      setBusy(false);
      if (ok) void revalidate(action.endpoint);
    }
  };

  /** Asks first, naming the record (or listing the rows of a bulk run). */
  const ask = <R,>(action: CallAction<R>, rows: readonly R[], rowName: (row: R) => string) => {
    const first = rows[0];
    const confirm = action.confirm;
    if (first === undefined || !confirm) return;
    const questionOf = (a: CallAction<R>): Question => {
      const c = a.confirm ?? confirm;
      const label = textOf(a.label, first);
      return {
        title: rows.length > 1 ? `${textOf(c.title, first)}（${rows.length} 项）` : textOf(c.title, first),
        confirmLabel: c.confirmLabel ? textOf(c.confirmLabel, first) : label,
        danger: dangerOf(a, first),
        irreversible: c.irreversible,
        closeOnRefusal: c.closeOnRefusal,
        body: rows.length > 1 ? <p>将对所选 {rows.length} 项执行「{label}」：{rows.map(rowName).join('、')}</p> : c.body(first),
      };
    };
    // The current declaration is the same action of the same page, so of the same row type.
    const latest = (now: CallAction<never> | undefined) => (now as CallAction<R> | undefined) ?? action;
    setAsking({ id: action.id, question: (now) => questionOf(latest(now)), go: (now) => run(latest(now), rows) });
  };

  /** One row: asked first when the action declares a question, else run at once. */
  const start = <R,>(action: CallAction<R>, row: R, rowName: (row: R) => string) => {
    if (action.confirm) ask(action, [row], rowName);
    else void run(action, [row]);
  };

  const now = asking ? current.filter(isCall).find((a) => a.id === asking.id) : undefined;
  const question = asking?.question(now);
  const dialog =
    asking && question ? (
      <ConfirmDialog
        open
        title={question.title}
        confirmLabel={question.confirmLabel}
        danger={question.danger}
        irreversible={question.irreversible}
        busy={busy}
        onConfirm={() => void asking.go(now).then((done) => (done || question.closeOnRefusal) && setAsking(null))}
        onClose={() => setAsking(null)}
      >
        {question.body}
      </ConfirmDialog>
    ) : null;
  return { run, ask, start, busy, dialog };
}

/** The signed-in account, for an action's `when` (nobody disables themselves). */
export function useWho(): Who {
  const acrossAll = useNoAreaChosen();
  return { login: useCurrentUser().data?.login ?? '', acrossAll };
}

export interface RowActions<R> {
  /** The actions this account may use on this row. */
  of(row: R): RowAction<R>[];
  trigger(action: RowAction<R>, row: R): void;
  /** The 操作 column's buttons for a row. */
  buttons(row: R): ReactNode;
  /** A key pressed on the focused row: true when an action took it. */
  onRowKey(key: string, row: R): boolean;
  primary: ((row: R) => void) | undefined;
  primaryHint: ((row: R) => string | undefined) | undefined;
  /** The bulk bar's buttons for the selected rows; null when no action applies in bulk. */
  bulk: ((rows: readonly R[], clear: () => void) => ReactNode) | null;
  /** The confirmation dialog: render it once, after the table. */
  dialog: ReactNode;
  any: boolean;
}

/**
 * Row actions declared once: the table's 操作 buttons, the focused row's hotkeys, Enter, the bulk
 * bar and the palette all trigger the same declaration. Busy state, confirmation, the success toast,
 * 撤销 and the refetch of what changed belong to the runner, not to the page.
 */
export function useRowActions<R>(actions: readonly RowAction<R>[], rowName: (row: R) => string): RowActions<R> {
  const grants = useContext(GrantsContext);
  const who = useWho();
  const runner = useActionRunner(actions);
  const allowed = actions.filter((a) => isAllowed(a.permission, grants));
  for (const a of allowed) if (a.hotkey && TABLE_KEYS.has(a.hotkey.toLowerCase())) throw new Error(`row action ${a.id}: ${a.hotkey} is the table's own key`);
  const applies = (a: RowAction<R>, row: R) => !a.when || a.when(row, who);
  const of = (row: R) => allowed.filter((a) => applies(a, row));

  const [, navigate] = useLocation();
  const trigger = (action: RowAction<R>, row: R) => {
    if (isCall(action)) runner.start(action, row, rowName);
    else if (isGo(action)) navigate(action.to(row));
    else if (isChoose(action)) {
      // The palette asks for the other record: its step, with the row's own candidates.
      requestChoice(action, row, rowName(row));
    } else action.open(row);
  };

  const label = (a: RowAction<R>, row: R) => textOf(a.label, row);
  const fullLabel = (a: RowAction<R>, row: R) => textOf(a.fullLabel ?? a.label, row);
  const spoken = (a: RowAction<R>, row: R) => (a.spoken ? a.spoken(row, rowName(row)) : `${fullLabel(a, row)} ${rowName(row)}`);
  const buttons = (row: R) => (
    <span className="flex gap-1">
      {of(row).map((a) => (
        <Button
          key={a.id}
          variant="text"
          onClick={() => trigger(a, row)}
          className={dangerOf(a, row) ? '!text-red-600' : ''}
          aria-label={spoken(a, row)}
          aria-keyshortcuts={a.hotkey}
          aria-haspopup={(isCall(a) && a.confirm) || isChoose(a) ? 'dialog' : undefined}
          title={a.hotkey ? `${label(a, row)}（${a.hotkey}）` : undefined}
        >
          {label(a, row)}
        </Button>
      ))}
    </span>
  );

  const primaryAction = allowed.find((a) => a.primary);
  const bulkActions = allowed.filter((a): a is CallAction<R> => isCall(a) && !!a.bulk);
  return {
    of,
    trigger,
    buttons,
    onRowKey(key, row) {
      const a = of(row).find((x) => x.hotkey && x.hotkey.toLowerCase() === key.toLowerCase());
      if (!a) return false;
      trigger(a, row);
      return true;
    },
    primary: primaryAction ? (row) => applies(primaryAction, row) && trigger(primaryAction, row) : undefined,
    primaryHint: primaryAction ? (row) => (applies(primaryAction, row) ? `按 Enter ${fullLabel(primaryAction, row)}` : undefined) : undefined,
    bulk: bulkActions.length
      ? (rows, clear) =>
          bulkActions.map((a) => {
            const fit = rows.filter((r) => applies(a, r));
            return (
              <Button
                key={a.id}
                className="h-8"
                disabled={!fit.length || runner.busy}
                onClick={() => {
                  if (a.confirm) runner.ask(a, fit, rowName);
                  else void runner.run(a, fit).then((done) => done && clear());
                }}
              >
                {`${fit[0] ? label(a, fit[0]) : a.id}（${fit.length}）`}
              </Button>
            );
          })
      : null,
    dialog: runner.dialog,
    any: allowed.length > 0,
  };
}

/**
 * A resource's declared actions on its page: the same as useRowActions, with each dialog action
 * running the page's handler for it (`handlers`, one per page action the resource opens). The
 * page's address for it (`?action=edit&id=…`, where the palette lands) runs the same handler, with
 * the row the palette handed over, else the row on the list's page (`rows`), else `find(id)`.
 */
export function useResourceActions<R, A extends readonly ResourceAction<R>[]>(
  resource: Resource<R, A>,
  handlers: Readonly<Record<DialogsOf<A>, (row: R) => void>>,
  opts: { rows?: readonly R[] } = {},
): RowActions<R> {
  const grants = useContext(GrantsContext);
  const who = useWho();
  const handlerOf = (name: string) => (handlers as Readonly<Record<string, (row: R) => void>>)[name];
  const actions: RowAction<R>[] = resource.actions.map((a) => {
    if (!isDialog(a)) return a;
    const handler = handlerOf(a.opens[2]);
    if (!handler) throw new Error(`row action ${a.id}: the page gives no handler for ${a.opens[2]}`);
    return { ...a, open: handler };
  });
  const dialogs = resource.actions.filter(isDialog);
  useScreenActions(
    dialogs.map((a) => a.opens[2]),
    (name, args) => {
      const id = args.get('id') ?? '';
      const action = dialogs.find((a) => a.opens[2] === name);
      // Handed for this very page action (module, page, action) and id: the row is this resource's.
      const known = (action && (takeHandedRow(action.opens, id) as R | undefined)) ?? opts.rows?.find((r) => String(resource.id(r)) === id);
      const found = known !== undefined ? Promise.resolve(known) : (resource.find?.(id) ?? Promise.resolve(undefined)).catch(() => undefined);
      void found.then((row) => {
        // The same rule as the button: the account may, and the action applies to the row as it is now.
        if (row === undefined || !action || !isAllowed(action.permission, grants) || (action.when && !action.when(row, who))) {
          toast.error('记录不存在，或当前不能执行该操作');
          return;
        }
        handlerOf(name)?.(row);
      });
    },
    ['id'],
  );
  return useRowActions(actions, resource.name);
}
