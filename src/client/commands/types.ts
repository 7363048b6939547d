import type { Endpoint, Permission } from '../../shared/api';
import type { CallAction, RecordActions } from '../components/resource/row-action';

/** Where a hotkey listens; one key may mean different things in different scopes, never twice in one. */
export type HotkeyScope = 'global' | 'table' | 'dialog';

export interface ArgOption {
  value: string;
  label: string;
  /** What tells two options of one label apart (a station's district, place and QR code). */
  subtitle?: string;
  keywords?: string[];
}

/** An input the palette asks for inline, one step at a time. */
export interface CommandArg {
  name: string;
  /** The prompt, e.g. 选择区域. */
  label: string;
  kind: 'text' | 'choice' | 'datetime';
  placeholder?: string;
  /** For `choice`: the options, possibly loaded when the step opens. */
  options?: () => Promise<ArgOption[]> | ArgOption[];
  /** Returns a Chinese message when the typed (or chosen) value is not acceptable; `values`: the earlier steps'. */
  validate?: (value: string, values: Readonly<Record<string, string>>) => string | null;
  optional?: boolean;
}

export interface CommandContext {
  navigate(path: string): void;
  /** Stores the chosen area (null: every area) and reloads the view. */
  setDistrict(id: string | null): void;
  /** Runs a shell action the layout owns (change password, settings, log out…). */
  shell(action: ShellAction): void;
  /** A command changed data through this endpoint: every read sharing its resource tags refetches. */
  changed(endpoint: Pick<Endpoint, 'id' | 'writes'>): void;
}

export type ShellAction = 'palette' | 'change-password' | 'settings' | 'logout' | 'toggle-sidebar' | 'cheat-sheet' | 'toggle-tags' | 'downloads';

/** What a command's `when` may look at besides the account's permissions. */
export interface CommandState {
  /** The current path, e.g. `/user/user-list`. */
  path: string;
}

/**
 * A command is data (DESIGN §5): registered once, permission-aware, reachable from the palette,
 * from its hotkey and from the screen where it belongs.
 */
export interface Command {
  id: string;
  title: string;
  group: string;
  keywords?: string[];
  /** The contract's declaration: the same one the server enforces. */
  permission: Permission;
  /** In react-hotkeys-hook's notation (`mod+k`, `ctrl+b`, `?`, `g>u`); bound by the dispatcher. */
  hotkey?: string;
  hotkeyScope?: HotkeyScope;
  /** The hotkey also works while typing in a field. */
  whileTyping?: boolean;
  /** Available only in some states (a screen, a selection), besides its permission. */
  when?(state: CommandState): boolean;
  /**
   * The page the command opens (`/busUser/card`), or null when it opens none (a shell action): the
   * command is offered only to accounts whose menus hold that page, so it never leads to a page the
   * account cannot see. Required, so no command can forget it; tests/unit/modules.test.ts checks the
   * command navigates nowhere else.
   */
  page: string | null;
  args?: CommandArg[];
  /**
   * The command typed whole as its data (`zjgk 下周一至五 07:30,08:00 45`, no title, no steps): the
   * arguments the query gives, what is left of it (the one `choice` argument still needed, ranked
   * over its options by use-query-commands) and the row's statement of the change for an option; null
   * when the query is not this command's.
   */
  fromQuery?(text: string): { values: Record<string, string>; rest: string; title(option: ArgOption): string } | null;
  run(ctx: CommandContext, args: Record<string, string>): void;
}

/** A palette row: a command, a page, a record or a sniffed lookup. */
export interface PaletteItem {
  key: string;
  title: string;
  subtitle?: string;
  group: string;
  hotkey?: string;
  /** Rows that cannot run yet say why instead of pretending. */
  disabledReason?: string;
  command?: Command;
  run?(ctx: CommandContext): void;
  /** A record's row and its resource's actions: offered under it (Tab or →). */
  actions?: RecordActions;
  /** A record's action with the value typed beside it (use-inline-rows): Enter runs the call. */
  inline?: { rec: RecordActions; action: CallAction<unknown> };
}
