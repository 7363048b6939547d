import { type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { type Endpoint, type Permission, isAllowed } from '../../../shared/api';
import { GrantsContext } from '../../lib/permission';
import { api } from '../../lib/api-client';
import type { CallInput } from '../../lib/http';
import { useRevalidate } from '../../lib/revalidate';
import { Button } from '../button';
import { ConfirmDialog } from '../confirm-dialog';
import { toast } from '../../lib/toast';

/** Keys the table itself uses on a row: an action may not take them. */
export const TABLE_KEYS = new Set(['j', 'k', 'x', ' ', 'enter', 'escape', 'home', 'end', 'pageup', 'pagedown', '/']);

type Text<R> = string | ((row: R) => string);
const textOf = <R,>(t: Text<R>, row: R) => (typeof t === 'function' ? t(row) : t);

interface ActionBase<R> {
  id: string;
  label: Text<R>;
  /** The screen reader's name and Enter's hint when the button says it shorter (查看实名 → 查看实名信息). */
  fullLabel?: Text<R>;
  /** One key on the focused row (shown on the button and in its title); never j, k, x or Space. */
  hotkey?: string;
  /** Who may: the contract's declaration, the same rule the server enforces. */
  permission: Permission;
  /** Rows it applies to (an account may not disable itself). */
  when?(row: R): boolean;
  danger?: boolean | ((row: R) => boolean);
  /** Enter and a double click on the row do this one. */
  primary?: boolean;
}

/** An action that opens the page's own dialog (编辑, 详情). */
export interface OpenAction<R> extends ActionBase<R> {
  open(row: R): void;
}

export interface Confirm<R> {
  title: Text<R>;
  /** Names the record (and its district) and says what follows. */
  body(row: R): ReactNode;
  confirmLabel?: Text<R>;
  /** 作废, 删除, 合并: focus starts on 取消 (ConfirmDialog). */
  irreversible?: boolean;
  /**
   * Close on the server's refusal too: when asking again would get the same answer (a version
   * without lines), the refusal toast is the end of it. Unset, the dialog stays for another try.
   */
  closeOnRefusal?: boolean;
}

/** An action that is one call: asked first when it cannot be undone, or offering 撤销 when it can. */
export interface CallAction<R> extends ActionBase<R> {
  /** What the call changes: its tags decide which reads refetch. */
  endpoint: Endpoint;
  run(row: R): Promise<unknown>;
  /** The success toast. */
  done(row: R): string;
  confirm?: Confirm<R>;
  /** The way back: a toast with 撤销 (and Ctrl+Z) for 10 s. */
  undo?: { endpoint: Endpoint; run(row: R): Promise<unknown>; done(row: R): string };
  /** Offered in the bulk bar for the selected rows, each in turn. */
  bulk?: boolean;
}

export type RowAction<R> = OpenAction<R> | CallAction<R>;

const isCall = <R,>(a: RowAction<R>): a is CallAction<R> => 'run' in a;

/** A call action whose input is checked against its endpoint's schemas at compile time. */
export function callAction<R, E extends Endpoint>(def: Omit<CallAction<R>, 'run' | 'endpoint' | 'undo'> & {
  endpoint: E;
  input(row: R): CallInput<E>;
  /** The call that takes it back: the same endpoint with the old values, unless another is named. */
  undo?: { input(row: R): CallInput<E>; done(row: R): string };
}): CallAction<R> {
  const { input, undo, ...rest } = def;
  // A generic E leaves call's rest-parameter form unresolved; the input is CallInput<E> all the same.
  const send = (row: R, make: (row: R) => CallInput<E>) => (api.call as (e: E, i: CallInput<E>) => Promise<unknown>)(def.endpoint, make(row));
  return {
    ...rest,
    run: (row) => send(row, input),
    undo: undo ? { endpoint: def.endpoint, run: (row) => send(row, undo.input), done: undo.done } : undefined,
  };
}

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
 * 撤销 and the refetch of what changed belong here, not to the page.
 */
export function useRowActions<R>(actions: readonly RowAction<R>[], rowName: (row: R) => string): RowActions<R> {
  const grants = useContext(GrantsContext);
  const revalidate = useRevalidate();
  const [asking, setAsking] = useState<{ action: CallAction<R>; rows: readonly R[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  useUndoKey();
  const allowed = actions.filter((a) => isAllowed(a.permission, grants));
  for (const a of allowed) if (a.hotkey && TABLE_KEYS.has(a.hotkey.toLowerCase())) throw new Error(`row action ${a.id}: ${a.hotkey} is the table's own key`);
  const of = (row: R) => allowed.filter((a) => !a.when || a.when(row));

  const run = async (action: CallAction<R>, rows: readonly R[]): Promise<boolean> => {
    if (busyRef.current) return false;
    busyRef.current = true;
    setBusy(true);
    let ok = 0;
    try {
      for (const row of rows) {
        await action.run(row);
        ok++;
        if (action.undo && rows.length === 1) {
          const undo = action.undo;
          offerUndo(action.done(row), () => {
            void undo.run(row).then(() => {
              toast.success(undo.done(row));
              void revalidate(undo.endpoint);
            }, () => undefined);
          });
        } else if (rows.length === 1) toast.success(action.done(row));
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

  const trigger = (action: RowAction<R>, row: R) => {
    if (!isCall(action)) return action.open(row);
    if (action.confirm) setAsking({ action, rows: [row] });
    else void run(action, [row]);
  };

  const label = (a: RowAction<R>, row: R) => textOf(a.label, row);
  const fullLabel = (a: RowAction<R>, row: R) => textOf(a.fullLabel ?? a.label, row);
  const danger = (a: RowAction<R>, row: R) => (typeof a.danger === 'function' ? a.danger(row) : !!a.danger);
  const buttons = (row: R) => (
    <span className="flex gap-1">
      {of(row).map((a) => (
        <Button
          key={a.id}
          variant="text"
          onClick={() => trigger(a, row)}
          className={danger(a, row) ? '!text-red-600' : ''}
          aria-label={`${fullLabel(a, row)} ${rowName(row)}`}
          aria-keyshortcuts={a.hotkey}
          aria-haspopup={isCall(a) && a.confirm ? 'dialog' : undefined}
          title={a.hotkey ? `${label(a, row)}（${a.hotkey}）` : undefined}
        >
          {label(a, row)}
        </Button>
      ))}
    </span>
  );

  const primaryAction = allowed.find((a) => a.primary);
  const bulkActions = allowed.filter((a): a is CallAction<R> => isCall(a) && !!a.bulk);
  const pending = asking;
  const first = pending?.rows[0];
  const confirm = pending?.action.confirm;
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
    primary: primaryAction ? (row) => (!primaryAction.when || primaryAction.when(row)) && trigger(primaryAction, row) : undefined,
    primaryHint: primaryAction ? (row) => (!primaryAction.when || primaryAction.when(row) ? `按 Enter ${fullLabel(primaryAction, row)}` : undefined) : undefined,
    bulk: bulkActions.length
      ? (rows, clear) =>
          bulkActions.map((a) => {
            const fit = rows.filter((r) => !a.when || a.when(r));
            return (
              <Button
                key={a.id}
                className="h-8"
                disabled={!fit.length || busy}
                onClick={() => {
                  if (a.confirm) setAsking({ action: a, rows: fit });
                  else void run(a, fit).then((done) => done && clear());
                }}
              >
                {`${fit[0] ? label(a, fit[0]) : a.id}（${fit.length}）`}
              </Button>
            );
          })
      : null,
    dialog:
      pending && first && confirm ? (
        <ConfirmDialog
          open
          title={pending.rows.length > 1 ? `${textOf(confirm.title, first)}（${pending.rows.length} 项）` : textOf(confirm.title, first)}
          confirmLabel={confirm.confirmLabel ? textOf(confirm.confirmLabel, first) : label(pending.action, first)}
          danger={danger(pending.action, first)}
          irreversible={confirm.irreversible}
          busy={busy}
          onConfirm={() => void run(pending.action, pending.rows).then((done) => (done || confirm.closeOnRefusal) && setAsking(null))}
          onClose={() => setAsking(null)}
        >
          {pending.rows.length > 1 ? <p>将对所选 {pending.rows.length} 项执行「{label(pending.action, first)}」：{pending.rows.map(rowName).join('、')}</p> : confirm.body(first)}
        </ConfirmDialog>
      ) : null,
    any: allowed.length > 0,
  };
}
