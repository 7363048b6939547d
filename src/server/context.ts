import type { ChangeHub } from './lib/changes';
import type { Config, Clock } from './config';
import type { Db } from './db/connection';
import type { Actor } from './lib/audit';
import type { ExportRuntime } from './lib/export-tasks';
import type { PaymentChannel } from './lib/payment-channel';
import type { PasswordWork } from './lib/password';
import type { Pii } from './lib/pii';
import type * as t from './db/schema';

/** What every module needs from the running app; built once by buildApp. */
export interface AppDeps {
  db: Db;
  config: Config;
  clock: Clock;
  jwtKey: Uint8Array;
  /** Personal data at rest: encryption and blind indexes (lib/pii.ts). */
  pii: Pii;
  /** Password hashing through one bounded queue (lib/password.ts). */
  passwords: PasswordWork;
  /** Export tasks: the kinds the modules declare, the queue's worker and the progress hub. */
  exports: ExportRuntime;
  /** Committed changes heard by this instance, for the consoles' event streams (lib/changes.ts). */
  changes: ChangeHub;
  /** Where refunds go: the riders' payment channel (lib/payment-channel.ts; built-in answers at once). */
  payments: PaymentChannel;
}

export type UserRow = typeof t.users.$inferSelect;
export type SessionRow = typeof t.sessions.$inferSelect;

/** The signed-in account behind a request. */
export interface AuthContext {
  user: UserRow;
  session: SessionRow;
  roles: string[];
  buttons: string[];
  /** The menus (module ids) the account sees: a module's reads are for those who have its screens. */
  menus: string[];
  /** The district the request works in; null means every district (openDistrict without a choice). */
  districtScope: number | null;
  actor: Actor;
}

export const isSuperUser = (auth: Pick<AuthContext, 'roles'>) => auth.roles.includes('ROLE_APP_ADMIN');
