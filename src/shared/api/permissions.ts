import type { MenuId } from './menus';

/** Roles are the names in a user's authority list (spec §6). */
export const ROLES = ['ROLE_APP_ADMIN', 'ROLE_ADMIN', 'ROLE_USER'] as const;
export type Role = (typeof ROLES)[number];

/** APP_ADMIN > ADMIN > USER: nobody grants a role above their own highest. */
export const ROLE_RANK: Record<Role, number> = { ROLE_USER: 1, ROLE_ADMIN: 2, ROLE_APP_ADMIN: 3 };

export const rankOf = (roles: readonly string[]) => Math.max(0, ...roles.map((r) => ROLE_RANK[r as Role] ?? 0));

export const ROLE_LABELS: Record<Role, string> = {
  ROLE_APP_ADMIN: '超级管理员',
  ROLE_ADMIN: '管理员',
  ROLE_USER: '用户',
};

/**
 * Who may call an endpoint. The same declaration hides elements in the console and is enforced
 * by the server, so the two can never disagree.
 * - public:  no session (only authenticate)
 * - session: any signed-in account, read-only reference data
 * - self:    any signed-in account, acting on its own session or password only
 * - grant:   one of `roles`, one of `buttons` (keys declared by the modules) or one of `menus` (the
 *            account sees that menu: reading a module's records is for those who have its screens);
 *            ROLE_APP_ADMIN (super user) always passes
 */
export type Permission =
  | { kind: 'public' }
  | { kind: 'session' }
  | { kind: 'self' }
  | { kind: 'grant'; roles?: readonly Role[]; buttons?: readonly string[]; menus?: readonly MenuId[] };

export const PUBLIC: Permission = { kind: 'public' };
export const SESSION: Permission = { kind: 'session' };
export const SELF: Permission = { kind: 'self' };
interface GrantSpec {
  roles?: readonly Role[];
  /** Menus by id (spec §2): a renamed or unknown menu is a compile error. */
  menus?: readonly MenuId[];
}

/** A grant by role or by menu. Buttons are granted only through `grantIn`. */
export const grant = (spec: GrantSpec): Permission => ({ kind: 'grant', ...spec });

/**
 * The one way to grant a button: `grantIn(buttons)` takes the record of button keys a module
 * declares (its contract file exports it, its manifest lists it) and grants only those keys, checked
 * at compile time, so a contract file cannot name a button nobody declared.
 */
export const grantIn =
  <const B extends Readonly<Record<string, string>>>(_buttons: B) =>
  (spec: GrantSpec & { buttons?: readonly (keyof B & string)[] }): Permission => ({ kind: 'grant', ...spec });

export interface Grants {
  roles: readonly string[];
  buttons: readonly string[];
  /** The menus (module ids) the account sees. */
  menus?: readonly string[];
}

/** The one permission rule, used by the server to refuse and the console to hide. */
export function isAllowed(permission: Permission, grants: Grants | null): boolean {
  if (permission.kind === 'public') return true;
  if (!grants) return false;
  if (permission.kind !== 'grant') return true;
  if (grants.roles.includes('ROLE_APP_ADMIN')) return true;
  if (permission.roles?.some((r) => grants.roles.includes(r))) return true;
  if (permission.buttons?.some((b) => grants.buttons.includes(b))) return true;
  if (permission.menus?.some((m) => grants.menus?.includes(m))) return true;
  return false;
}
