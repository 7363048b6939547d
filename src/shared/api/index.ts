import * as account from './account';
import * as auth from './auth';
import type { Endpoint } from './endpoint';
import * as system from './system';

export * from './envelope';
export * from './endpoint';
export * from './paging';
export * from './permissions';
export * from './menus';
export { account, auth, system };
export type { AuthItem, UserInfo } from './auth';
export type { RoleGroup, StaffUser } from './account';
export type { Agreement, District, SysLog } from './system';

/** Every endpoint of the contract; the server binds exactly these and the tests check it. */
export const endpoints: readonly Endpoint[] = [
  auth.authenticate,
  auth.currentUser,
  auth.logout,
  auth.authItems,
  auth.changePassword,
  account.userPage,
  account.userById,
  account.userUpdate,
  account.userAdd,
  account.groupList,
  account.groupUpdate,
  system.sysLogPage,
  system.sysLogOperationTypes,
  system.districtPage,
  system.agreementList,
  system.agreementSave,
  system.qrCode,
  system.cityLocation,
  system.payInfoList,
];
