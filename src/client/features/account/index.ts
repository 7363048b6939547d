import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 账号管理 (module `user`): staff accounts, role groups, the system log. */
export const accountFeature = defineFeature({
  screens: {
    ListUser: lazy(() => import('./pages/user-list-page').then((m) => ({ default: m.UserListPage }))),
    ListRoleGroup: lazy(() => import('./pages/role-group-page').then((m) => ({ default: m.RoleGroupPage }))),
    ListSysLog: lazy(() => import('./pages/sys-log-page').then((m) => ({ default: m.SysLogPage }))),
  },
});
