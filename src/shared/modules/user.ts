import { defineModule } from './define';

/** 账号管理: staff accounts, role groups and the system log. */
export const userModule = defineModule({
  id: 'user',
  menu: {
    id: 'user',
    title: '账号管理',
    icon: 'user',
    jumpKey: 'u',
    roles: ['ROLE_APP_ADMIN', 'ROLE_ADMIN'],
    pages: [
      { key: 'user-list', title: '账号列表', component: 'ListUser', actions: ['add', 'edit'] },
      { key: 'role-group', title: '角色组', component: 'ListRoleGroup' },
      { key: 'sys-log', title: '系统日志', component: 'ListSysLog' },
    ],
  },
  operations: {
    USER_ADD: '新增账号',
    USER_UPDATE: '编辑账号',
    USER_STATUS: '启用/禁用账号',
    USER_PASSWORD_RESET: '重置密码',
    GROUP_UPDATE: '编辑角色组',
  },
});
