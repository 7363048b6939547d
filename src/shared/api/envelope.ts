import { z } from 'zod';

/** `code: 1` is success; anything else is an error whose `msg` the console shows as it is. */
export const SUCCESS = 1;

export const Code = {
  OK: SUCCESS,
  /** Business refusal: HTTP 200, message for the user. */
  FAIL: 0,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data });

/** Header set on a 401 when a newer login of the same account ended this session. */
export const LOGIN_RESULT_HEADER = 'loginresult';
export const LOGIN_ELSEWHERE = '-2';
/** Header carrying the chosen area; absent means the account's own district. */
export const DISTRICT_HEADER = 'districtid';

/** Messages the server and the console share, so both say the same thing. */
export const Msg = {
  ok: '操作成功',
  loginFailed: '用户名或密码错误，连续失败5次将锁定30分钟',
  notLoggedIn: '登录已失效，请重新登录',
  loggedInElsewhere: '您的账号已在其他地方登录，请重新登录',
  forbidden: '当前用户没有权限操作',
  foreignDistrict: '当前用户没有权限操作该区域',
  notFound: '接口不存在',
  recordNotFound: '记录不存在',
  /** A save or status change sent from a version of the record that is no longer its own (issue 21). */
  staleEdit: '该记录已被他人修改，请刷新后再保存',
  badJson: '请求内容不是有效的 JSON',
  tooLarge: '请求内容过大',
  unsupportedMedia: '不支持的请求内容类型',
  internal: '服务内部错误，请重试',
  unavailable: '服务器维护中',
  busy: '服务器繁忙，请稍后再试',
  requestTimeout: '请求超时',
  tooManyRequests: '操作过于频繁，请稍后再试',
  oldPasswordWrong: '原密码错误',
} as const;
