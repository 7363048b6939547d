import { type StaffUser, account, system } from '../../../shared/api';
import { formatDateTime } from '../../../shared/domain/time';
import type { EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { recordActions } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { holdsPersonalNumber, maskPhone } from '../../../shared/domain/mask';
import { pagePath } from '../../../shared/modules';
import { staffKeyword } from './staff-keyword';
import { userActions } from './user-actions';

/** The datetime-local value (Shanghai wall time) as the ISO the contract expects. */
const shanghaiIso = (local: string) => (local ? `${local.length === 16 ? `${local}:00` : local}+08:00` : undefined);

export const accountCommands: Command[] = [
  {
    id: 'account.add',
    title: '新增账号',
    group: '账号管理',
    keywords: ['添加员工', 'add user'],
    permission: account.userAdd.permission,
    page: pagePath('user', 'user-list'),
    run: (ctx) => ctx.navigate(pagePath('user', 'user-list', { action: 'add' })),
  },
  {
    id: 'account.find',
    title: '查询账号',
    group: '账号管理',
    keywords: ['员工', '用户', 'find user'],
    permission: account.userPage.permission,
    page: pagePath('user', 'user-list'),
    args: [{ name: 'keyword', label: '登录名、姓名或手机号', kind: 'text' }],
    // A phone typed here is personal data: handed to the list in memory, never put in the address.
    run: (ctx, a) => {
      if (a.keyword && holdsPersonalNumber(a.keyword)) {
        staffKeyword.handOff(a.keyword);
        ctx.navigate(pagePath('user', 'user-list'));
      } else ctx.navigate(pagePath('user', 'user-list', { query: { keyword: a.keyword } }));
    },
  },
  {
    id: 'sysLog.find',
    title: '查询系统日志',
    group: '账号管理',
    keywords: ['操作日志', '审计', 'audit log'],
    permission: system.sysLogPage.permission,
    page: pagePath('user', 'sys-log'),
    args: [
      { name: 'operator', label: '操作人（可留空）', kind: 'text', optional: true },
      {
        name: 'startTime',
        label: '开始时间（YYYY-MM-DD HH:mm，可留空）',
        kind: 'datetime',
        optional: true,
        validate: (v) => (!v || /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}$/.test(v) ? null : '时间格式应为 YYYY-MM-DD HH:mm'),
      },
    ],
    run: (ctx, a) =>
      ctx.navigate(pagePath('user', 'sys-log', { query: { operator: a.operator, startTime: shanghaiIso((a.startTime ?? '').replace(' ', 'T')) } })),
  },
];

const staffRecord = (u: StaffUser) => ({
  key: `staff:${u.id}`,
  title: `${u.firstName}（${u.login}）`,
  subtitle: [u.groupName, u.districtName, u.activated ? null : '已禁用'].filter(Boolean).join(' · '),
  keywords: [u.login, u.phone ?? ''],
  path: pagePath('user', 'user-list', { query: { keyword: u.login } }),
  actions: recordActions(userActions, u),
});

export const accountSources: EntitySource[] = [
  {
    id: 'staff',
    group: '账号',
    permission: account.userPage.permission,
    page: pagePath('user', 'user-list'),
    // Staff are few: loaded once and ranked locally, so pinyin and initials find them (kfxl → 客服小李)…
    async load() {
      const page = await api.call(account.userPage, { query: { size: 1000 } }, { silent: true });
      return page.content.map(staffRecord);
    },
    // …and the server is asked too, for whatever lies beyond the first thousand.
    async query(q) {
      const page = await api.call(account.userPageByBody, { body: { keyword: q, size: 8 } }, { silent: true });
      return page.content.map(staffRecord);
    },
    // A staff member's phone is personal data too: handed to the list in memory (never the address),
    // which asks with it in a body; the row's title and key, kept in the recents, are masked.
    lookup: (s) =>
      s.kind === 'phone'
        ? { key: `staff-phone:${maskPhone(s.value)}`, title: `按手机号查询员工：${maskPhone(s.value)}`, subtitle: '账号列表', path: pagePath('user', 'user-list'), onOpen: () => staffKeyword.handOff(s.value) }
        : null,
  },
  {
    id: 'role-groups',
    group: '角色组',
    permission: account.groupList.permission,
    page: pagePath('user', 'role-group'),
    async load() {
      const groups = await api.call(account.groupList, {}, { silent: true });
      return groups.map((g) => ({ key: `group:${g.id}`, title: g.name, subtitle: `${g.userCount} 个账号`, path: pagePath('user', 'role-group') }));
    },
  },
  {
    id: 'recent-logins',
    group: '系统日志',
    permission: system.sysLogPage.permission,
    page: pagePath('user', 'sys-log'),
    async load() {
      const page = await api.call(system.sysLogPage, { query: { size: 20, operationType: 'LOGIN_FAIL' } }, { silent: true });
      return page.content.map((l) => ({
        key: `log:${l.id}`,
        title: `登录失败：${l.operatorLogin ?? '未知'}`,
        subtitle: formatDateTime(l.createdDate),
        keywords: [l.operatorLogin ?? ''],
        path: pagePath('user', 'sys-log', { query: { operationType: 'LOGIN_FAIL', operator: l.operatorLogin } }),
      }));
    },
  },
];
