import type { ReactNode } from 'react';
import type { Endpoint, ResponseOf } from '../../../shared/api/endpoint';
import { type Grants, type Permission, isAllowed } from '../../../shared/api/permissions';
import { type ActionRef, pagePath } from '../../../shared/modules';
import { api } from '../../lib/api-client';
import { createStore } from '../../lib/store';
import type { CallInput } from '../../lib/http';
import { openPalette } from '../../lib/palette-opener';
import { toast } from '../../lib/toast';

// A row action as data, with no React state: a feature declares its resource's actions once, beside
// its commands, and both its table (useRowActions) and the palette (under a record it found) read
// the same list. The hooks that run them are in row-actions.tsx.

export type Text<R> = string | ((row: R) => string);
export const textOf = <R>(t: Text<R>, row: R) => (typeof t === 'function' ? t(row) : t);

/** Who is asking, for a rule about the row and the signed-in account (nobody disables themselves). */
export interface Who {
  login: string;
  /** An account over every area with none chosen: what is city-wide is changed only so (an activity for the whole city). */
  acrossAll: boolean;
}

interface ActionBase<R> {
  id: string;
  label: Text<R>;
  /** The screen reader's name and Enter's hint when the button says it shorter (查看实名 → 查看实名信息). */
  fullLabel?: Text<R>;
  /**
   * The button's whole name for a screen reader when the row's name does not simply follow the
   * label (查看 <时间 操作> 的详情); `name` is the row's name. Unset: the full label, then the name.
   */
  spoken?(row: R, name: string): string;
  /** One key on the focused row (shown on the button and in its title); never j, k, x or Space. */
  hotkey?: string;
  /** Who may: the contract's declaration, the same rule the server enforces. */
  permission: Permission;
  /** Rows it applies to (an account may not disable itself). */
  when?(row: R, who: Who): boolean;
  danger?: boolean | ((row: R) => boolean);
  /** Enter and a double click on the row do this one. */
  primary?: boolean;
  /**
   * The action's one input typed with the record in the palette (a time beside a version, a month
   * beside a line): the palette offers the whole change as a row, and Enter on it is the decision.
   */
  inline?: InlineArg<R>;
}

/** What a typed argument looks like: `2026-12-20 06:00`, `2026-10`. */
export type InlineKind = 'datetime' | 'month';

export interface InlineArg<R> {
  kind: InlineKind;
  /** The row's title: the whole change, naming the record and the value. */
  title(row: R, value: string): string;
  /** What the call changes (its tags decide which reads refetch); a read-only one (an export) too. */
  endpoint: Endpoint;
  run(row: R, value: string): Promise<unknown>;
  /** The success toast; none when the run says it itself (an export's task toasts). */
  done?(row: R, value: string): string;
  /** The way back, from what the change answered; unset when there is none. */
  undo?(row: R, value: string): { run(answer: unknown): Promise<unknown>; done: string } | null;
  /** Asked first when there is no way back for this row (a version never scheduled before). */
  confirm?(row: R, value: string): Confirm<R> | null;
}

/** The call an inline row runs: the same runner, toast, refetch and 撤销 as a button's. */
export function inlineCall<R>(action: ResourceAction<R>, inline: InlineArg<R>, value: string, row: R): CallAction<R> {
  const back = inline.undo?.(row, value) ?? null;
  return {
    id: `${action.id}:inline`,
    label: inline.title(row, value),
    permission: action.permission,
    endpoint: inline.endpoint,
    run: (r) => inline.run(r, value),
    done: (r) => inline.done?.(r, value) ?? '',
    undo: back ? { endpoint: inline.endpoint, run: (_r, answer) => back.run(answer), done: () => back.done } : undefined,
    confirm: back ? undefined : (inline.confirm?.(row, value) ?? undefined),
  };
}

/**
 * An action that opens the page's own dialog through a closure over the page's state: for a page
 * whose records the palette does not offer. A resource the palette finds declares a DialogAction.
 */
export interface OpenAction<R> extends ActionBase<R> {
  open(row: R): void;
}

/**
 * An action that opens a page's dialog, named by an action the page's manifest declares
 * (`['station', 'station', 'edit']`): the table runs the page's handler for it in place, the
 * palette hands the row over and navigates to `?action=edit&id=…`, where the same handler runs.
 */
export interface DialogAction<R> extends ActionBase<R> {
  opens: ActionRef;
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
  /**
   * `answer`: what the change answered, so the way back is sent from the version the change made
   * (issue 21: a move sent from an older version is refused as stale).
   */
  undo?: { endpoint: Endpoint; run(row: R, answer: unknown): Promise<unknown>; done(row: R): string };
  /** Offered in the bulk bar for the selected rows, each in turn. */
  bulk?: boolean;
}

/** One candidate as its row shows it: two of one name must differ in `subtitle`. */
export interface ChoiceRow {
  id: string;
  title: string;
  subtitle?: string;
  keywords?: readonly string[];
}

/** What choosing the highlighted candidate would do; `blocked`: it cannot, and Enter does nothing. */
export interface ChoiceOutcome {
  text: string;
  blocked?: boolean;
}

/** The step a ChooseAction asks: which other record, then the one call. */
export interface Choose<R, C, A = unknown> {
  /** The step's prompt (选择保留的站点…). */
  label: Text<R>;
  /** What choosing does to the record, said above the candidates: it names the record and whether it can be undone. */
  intro?(row: R): string;
  /** The candidates, best first (the one highlighted with nothing typed); never the record itself. */
  options(row: R): Promise<readonly C[]>;
  show(chosen: C, row: R): ChoiceRow;
  /** Said when no candidate matches what is typed. */
  empty: string;
  /** Asked when a candidate is highlighted: its row says what Enter would do, or why it cannot. */
  outcome?(row: R, chosen: C): Promise<ChoiceOutcome>;
  /** The call; it must not toast a refusal (the step shows it and stays). */
  run(row: R, chosen: C): Promise<A>;
  /** The success toast, from what the call answered. */
  done(row: R, chosen: C, answer: A): string;
}

/**
 * An action that needs one more record to run (合并到…): the palette asks for it as a step, with
 * the candidates ranked and the outcome of the highlighted one shown before Enter; a table's row
 * opens the palette in that step.
 */
export interface ChooseAction<R> extends ActionBase<R> {
  /** What the call changes: its tags decide which reads refetch. */
  endpoint: Endpoint;
  choose: Choose<R, unknown>;
}

/** A choose action with its candidate and answer types checked where it is declared. */
export function chooseAction<R, C, A>(def: Omit<ChooseAction<R>, 'choose'> & { choose: Choose<R, C, A> }): ChooseAction<R> {
  // The palette holds the candidates it was given and hands the same ones back: C and A never mix.
  return def as unknown as ChooseAction<R>;
}

/** What a table's useRowActions takes. */
export type RowAction<R> = OpenAction<R> | CallAction<R> | GoAction<R> | ChooseAction<R>;
/** What a resource declares: no closures over a page, so the palette can offer it too. */
export type ResourceAction<R> = DialogAction<R> | CallAction<R> | GoAction<R> | ChooseAction<R>;

export const isCall = <R>(a: RowAction<R> | ResourceAction<R>): a is CallAction<R> => 'run' in a;
export const isDialog = <R>(a: RowAction<R> | ResourceAction<R>): a is DialogAction<R> => 'opens' in a;
export const isGo = <R>(a: RowAction<R> | ResourceAction<R>): a is GoAction<R> => 'to' in a;
export const isChoose = <R>(a: RowAction<R> | ResourceAction<R>): a is ChooseAction<R> => 'choose' in a;

/**
 * A choose action asked for from a table's row: the palette opens in its step for that row. One
 * slot, taken once by the palette as it opens.
 */
export interface ChoiceRequest {
  action: ChooseAction<unknown>;
  row: unknown;
  /** The record's name, for the step's heading. */
  name: string;
}
let requested: (ChoiceRequest & { at: number }) | null = null;
/** A request the palette did not take this soon (its code failed to load) is dropped, never a later Ctrl+K's. */
const REQUEST_LIFETIME_MS = 10_000;
/**
 * Counts the requests: the palette takes one when this changes as well as when it opens, since a
 * request made while it is closing (a command run from the palette itself) may find it open again
 * before it ever rendered closed.
 */
export const choiceRequests = createStore(0);
export function requestChoice<R>(action: ChooseAction<R>, row: R, name: string): void {
  requested = { action: action as unknown as ChooseAction<unknown>, row, name, at: Date.now() };
  choiceRequests.set((n) => n + 1);
  if (openPalette()) return;
  requested = null;
  toast.error('命令面板尚未就绪，请按 Ctrl+K 打开后重试');
}
export function takeChoiceRequest(): ChoiceRequest | null {
  const r = requested;
  requested = null;
  return r && Date.now() - r.at <= REQUEST_LIFETIME_MS ? r : null;
}

/**
 * An action that opens another page for the row (its rides, its card view with a dialog there):
 * the same link from the table's row, the focused row's key and the palette.
 */
export interface GoAction<R> extends ActionBase<R> {
  to(row: R): string;
}

/** A call action whose input is checked against its endpoint's schemas at compile time. */
export function callAction<R, E extends Endpoint>(def: Omit<CallAction<R>, 'run' | 'endpoint' | 'undo'> & {
  endpoint: E;
  input(row: R): CallInput<E>;
  /**
   * The call that takes it back: the same endpoint with the old values. `answer` is what the change
   * answered (the record with its new version, for a versioned one).
   */
  undo?: { input(row: R, answer: ResponseOf<E>): CallInput<E>; done(row: R): string };
}): CallAction<R> {
  const { input, undo, ...rest } = def;
  // A generic E leaves call's rest-parameter form unresolved; the input is CallInput<E> all the same.
  const send = (row: R, make: (row: R) => CallInput<E>) => (api.call as (e: E, i: CallInput<E>) => Promise<unknown>)(def.endpoint, make(row));
  return {
    ...rest,
    run: (row) => send(row, input),
    undo: undo ? { endpoint: def.endpoint, run: (row, answer) => send(row, (r) => undo.input(r, answer as ResponseOf<E>)), done: undo.done } : undefined,
  };
}

/**
 * A resource's row actions, declared at feature level (`features/station/station-actions.ts`):
 * how a row is named and found by id, and what may be done with it.
 */
export interface Resource<R, A extends readonly ResourceAction<R>[] = readonly ResourceAction<R>[]> {
  /** What the buttons, the confirmation and the bulk bar call a row. */
  name(row: R): string;
  /** The id a dialog action carries in its address (`?action=edit&id=…`). */
  id(row: R): number | string;
  /**
   * The row for an id, when a dialog action's address is opened without the row handed over and
   * the row is not on the list's page (a link, a command that chose it by id).
   */
  find?(id: string): Promise<R | undefined>;
  actions: A;
}

/**
 * Declares a resource's actions. Curried so the row type is named and the actions keep their
 * literal page actions: the page that shows the resource must then handle each one (a compile
 * error otherwise, useResourceActions).
 */
export const defineResource =
  <R>() =>
  <const A extends readonly ResourceAction<R>[]>(resource: Resource<R, A>): Resource<R, A> =>
    resource;

/** The page actions a resource's dialog actions open: the handlers its page must give. */
export type DialogsOf<A> = A extends readonly (infer X)[] ? OpensName<X> : never;
type OpensName<X> = X extends { opens: readonly [unknown, unknown, infer N extends string] } ? N : never;

/** The actions of `resource` this account may take on `row` now: the table's buttons and the palette's panel alike. */
export function availableActions<R>(resource: Pick<Resource<R>, 'actions'>, row: R, grants: Grants | null, who: Who): ResourceAction<R>[] {
  return resource.actions.filter((a) => isAllowed(a.permission, grants) && (!a.when || a.when(row, who)));
}

/** The address of a dialog action for a row: its page with `?action=…&id=…`. */
export function dialogPath<R>(resource: Pick<Resource<R>, 'id'>, action: DialogAction<R>, row: R): string {
  const [module, page, name] = action.opens;
  // The tuple was checked against the manifests where it was declared; pagePath's generics cannot follow a union of them.
  return (pagePath as (m: string, p: string, o: { action: string; query: Record<string, string | number> }) => string)(module, page, { action: name, query: { id: resource.id(row) } });
}

/**
 * A record's row with its resource: what the palette offers under a record it found. The row type
 * is the resource's own, closed over here so the palette can hold records of many resources.
 */
export interface RecordActions {
  resource: Resource<unknown>;
  row: unknown;
}
export const recordActions = <R>(resource: Resource<R, readonly ResourceAction<R>[]>, row: R): RecordActions => ({ resource: resource as unknown as Resource<unknown>, row });

/**
 * The row a palette hands to the page it opens for a dialog action: the page takes it instead of
 * fetching it again. One slot, in memory, taken once, for one page action and one id: `edit` of 站点
 * and `edit` of 账号列表 are different actions, and a station's row never reaches the accounts page.
 * Navigating anywhere but that page drops it (`dropHandedRowAway`).
 */
let handed: { ref: ActionRef; path: string; id: string; row: unknown } | null = null;
const pageOf = (ref: ActionRef) => (pagePath as (m: string, p: string) => string)(ref[0], ref[1]);
const sameRef = (a: ActionRef, b: ActionRef) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
export function handRow(ref: ActionRef, id: number | string, row: unknown): void {
  handed = { ref, path: pageOf(ref), id: String(id), row };
}
export function takeHandedRow(ref: ActionRef, id: string): unknown {
  const h = handed;
  handed = null;
  return h && sameRef(h.ref, ref) && h.id === id ? h.row : undefined;
}
/** The shell's location changed: a row handed to another page's dialog is not for this one. */
export function dropHandedRowAway(pathname: string): void {
  if (handed && handed.path !== pathname) handed = null;
}
