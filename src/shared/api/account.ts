import { z } from 'zod';
import { BUSLINE, endpoint, readByBody } from './endpoint';
import { fromVersion, id, login, newPassword, optionalText, phone, queryBool, requiredText, rowVersion, timestamp } from './fields';
import { pageOf, pageQuery } from './paging';
import { ROLES, grant, grantIn } from './permissions';
import { onOffFlow } from '../frame/status-flow';

/** The account module's button permissions (spec §6), declared once with their labels. */
export const buttons = {
  USER_ADD: '新增与编辑账号',
  USER_UPDATE_STATUS: '启用/禁用账号',
} as const;
const can = grantIn(buttons);

/** An account is 启用 (may sign in) or 禁用 (signed out at once, refused at login). */
export const ACCOUNT_STATE = onOffFlow('状态', { code: true, label: '启用' }, { code: false, label: '禁用' });

export const staffUser = z.object({
  id: z.number().int(),
  login: z.string(),
  firstName: z.string(),
  phone: z.string().nullable(),
  activated: z.boolean(),
  authorities: z.array(z.enum(ROLES)),
  groupId: z.number().int().nullable(),
  groupName: z.string().nullable(),
  districtId: z.number().int().nullable(),
  districtName: z.string().nullable(),
  openDistrict: z.boolean(),
  locked: z.boolean(),
  createdDate: timestamp,
  lastModifiedDate: timestamp,
  passwordChangedDate: timestamp,
  /** Whether the caller may edit, disable or reset this account: the server's own rule, per row. */
  manageable: z.boolean(),
  rowVersion,
});
export type StaffUser = z.infer<typeof staffUser>;

const ACCOUNT_ADMINS = grant({ roles: ['ROLE_ADMIN'] });

export const userPage = endpoint({
  id: 'user.page',
  title: '账号列表',
  method: 'GET',
  path: `${BUSLINE}/user/query/page`,
  query: pageQuery(['login', 'firstName', 'createdDate', 'lastModifiedDate'] as const).extend({
    keyword: optionalText('关键字', 50).optional(),
    activated: queryBool('状态').optional(),
    groupId: id('角色组').optional(),
    districtId: id('区域').optional(),
  }),
  response: pageOf(staffUser),
  permission: ACCOUNT_ADMINS,
});

/** The account list with its filters in a POST body: the keyword may be a staff member's phone. */
export const userPageByBody = readByBody(userPage, { id: 'user.pageByBody', title: '账号列表（条件在请求体）' });

export const userById = endpoint({
  id: 'user.byId',
  title: '账号详情',
  method: 'GET',
  path: `${BUSLINE}/user/query/:id`,
  params: z.object({ id: id('账号ID') }),
  response: staffUser,
  permission: ACCOUNT_ADMINS,
});

const role = z.enum(ROLES, { error: '角色不正确' });

export const userAdd = endpoint({
  id: 'user.add',
  title: '新增账号',
  method: 'POST',
  path: `${BUSLINE}/user/add`,
  body: z.object({
    login,
    firstName: requiredText('姓名', 32),
    phone: phone.optional(),
    password: newPassword,
    authority: role,
    groupId: id('角色组'),
    districtId: id('区域').nullable().optional(),
    openDistrict: z.boolean().default(false),
    activated: z.boolean().default(true),
  }),
  response: staffUser,
  permission: can({ buttons: ['USER_ADD'] }),
});

/** Within user/update: moving `activated` needs this… */
export const userStatusPermission = can({ buttons: ['USER_UPDATE_STATUS'] });
/** …and changing anything else this. */
export const userEditPermission = can({ buttons: ['USER_ADD'] });

/**
 * Edits an account. The route admits either key; the service checks which fields move against
 * userStatusPermission and userEditPermission.
 */
export const userUpdate = endpoint({
  id: 'user.update',
  title: '编辑账号',
  method: 'PUT',
  path: `${BUSLINE}/user/update`,
  body: z.object({
    id: id('账号ID'),
    firstName: requiredText('姓名', 32).optional(),
    phone: phone.nullable().optional(),
    authority: role.optional(),
    groupId: id('角色组').optional(),
    districtId: id('区域').nullable().optional(),
    openDistrict: z.boolean().optional(),
    activated: z.boolean().optional(),
    /** An administrator's reset; ends the account's sessions. */
    password: newPassword.optional(),
    rowVersion: fromVersion,
  }),
  response: staffUser,
  permission: can({ buttons: ['USER_ADD', 'USER_UPDATE_STATUS'] }),
});

export const roleGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  itemIds: z.array(z.string()),
  userCount: z.number().int(),
  rowVersion,
});
export type RoleGroup = z.infer<typeof roleGroup>;

export const groupList = endpoint({
  id: 'group.list',
  title: '角色组列表',
  method: 'GET',
  path: `${BUSLINE}/group/get/list`,
  response: z.array(roleGroup),
  permission: ACCOUNT_ADMINS,
});

/** Query parameters, as the console sends them (spec §7); `itemIds` is comma-separated. */
export const groupUpdate = endpoint({
  id: 'group.update',
  title: '编辑角色组',
  method: 'POST',
  path: `${BUSLINE}/group/update`,
  query: z.object({
    id: id('角色组ID'),
    name: requiredText('角色组名称', 32).optional(),
    description: optionalText('描述', 200).optional(),
    itemIds: z
      .string({ error: '权限项应为逗号分隔的ID' })
      .max(20_000, { error: '权限项过多' })
      .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
      .optional(),
    rowVersion: fromVersion,
  }),
  response: roleGroup,
  // Role groups decide what everyone may do: only the super user edits them.
  permission: grant({ roles: ['ROLE_APP_ADMIN'] }),
});
