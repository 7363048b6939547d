import { defineModule } from './define';

/** Signing in and the session: no menu of its own, present in every console. */
export const shellModule = defineModule({
  id: 'shell',
  operations: {
    LOGIN: '登录',
    LOGIN_FAIL: '登录失败',
    LOCK: '账号锁定',
    LOGOUT: '退出登录',
    DENIED: '越权访问',
    PASSWORD_CHANGE: '修改密码',
    SEED: '初始化数据',
  },
});
