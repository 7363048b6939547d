import * as account from './account';
import * as auth from './auth';
import * as busLine from './bus-line';
import * as card from './card';
import * as discount from './discount';
import * as exportTask from './export-task';
import * as family from './family';
import * as ridership from './ridership';
import * as lineVersion from './line-version';
import * as station from './station';
import * as system from './system';

export * from './envelope';
export * from './endpoint';
export * from './paging';
export * from './permissions';
export * from './menus';
export { account, auth, busLine, card, discount, exportTask, family, lineVersion, ridership, station, system };
export type { AuthItem, UserInfo } from './auth';
export type { RoleGroup, StaffUser } from './account';
export type { Agreement, BaseSetting, District, SysLog } from './system';
export type { Station, StationQr } from './station';
export type { LineVersion } from './line-version';
export type { Card, Rider } from './card';
export type { ExportTask, TaskEvent } from './export-task';
export type { BusLine, BusLineInfo, LineRoute, LineStop, SubLine, SubLineInfo } from './bus-line';

// Derived from the modules' manifests: menus, jump keys and operation types. The endpoints, their
// resource tags and the button keys are in shared/modules/contract, which the shell never loads.
export {
  MENU_JUMP_KEYS,
  MODULES,
  OPERATION_TYPES,
  menuCatalogue,
  menuItemIds,
  moduleOfMenu,
  type AuthItemRow,
  type ButtonKey,
  type ModuleId,
  type ModuleManifest,
  type OperationType,
  type ScreenComponent,
} from '../modules';
