import { z } from 'zod';
import { BUSLINE, endpoint } from './endpoint';
import { newPassword } from './fields';
import { AUTH_ITEM_TYPES } from './menus';
import { PUBLIC, SELF, SESSION } from './permissions';

export const loginResult = z.object({
  idToken: z.string(),
  /** Seconds the token stays valid without activity (TOKEN_TTL_SECONDS). */
  tokenExpiredSecond: z.number().int(),
  passwordIsExpired: z.boolean(),
  /** Seconds since the password was last changed (the banner shows it as days and hours). */
  passwordExpiredSecond: z.number().int(),
});

export const authenticate = endpoint({
  id: 'auth.authenticate',
  title: '登录',
  method: 'POST',
  path: `${BUSLINE}/authenticate`,
  body: z.object({
    // Only trimmed and bounded: the same refusal is given for every kind of bad credential.
    username: z.string({ error: '用户名不能为空' }).trim().min(1, { error: '用户名不能为空' }).max(64, { error: '用户名不能超过64个字符' }),
    password: z.string({ error: '密码不能为空' }).min(1, { error: '密码不能为空' }).max(128, { error: '密码不能超过128个字符' }),
  }),
  response: loginResult,
  permission: PUBLIC,
});

export const userInfo = z.object({
  authority: z.array(z.object({ name: z.string() })),
  firstName: z.string(),
  login: z.string(),
  aId: z.number().int(),
  openDistrict: z.boolean(),
  districtId: z.number().int().nullable(),
  groupId: z.number().int().nullable(),
  groupName: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const currentUser = endpoint({
  id: 'auth.currentUser',
  title: '当前用户信息',
  method: 'GET',
  path: `${BUSLINE}/user/query/msg`,
  response: userInfo,
  permission: SESSION,
});

export const logout = endpoint({
  id: 'auth.logout',
  title: '退出登录',
  method: 'POST',
  path: `${BUSLINE}/login-out`,
  response: z.null(),
  permission: SELF,
});

export const authItem = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  path: z.string(),
  /** JSON text: html, icon, title, redirect, roles, noCache, component. */
  para: z.string(),
  type: z.enum(AUTH_ITEM_TYPES),
  sort: z.number().int(),
});
export type AuthItem = z.infer<typeof authItem>;

export const authItems = endpoint({
  id: 'auth.items',
  title: '当前用户的菜单与按钮权限',
  method: 'GET',
  path: `${BUSLINE}/group/item/query`,
  response: z.array(authItem),
  permission: SESSION,
});

export const changePassword = endpoint({
  id: 'auth.changePassword',
  title: '修改密码',
  method: 'POST',
  path: `${BUSLINE}/user/update/password`,
  bodyType: 'form',
  body: z.object({
    oldPassword: z.string({ error: '原密码不能为空' }).min(1, { error: '原密码不能为空' }).max(128, { error: '原密码不能超过128个字符' }),
    newPassword,
  }),
  response: z.null(),
  permission: SELF,
});
