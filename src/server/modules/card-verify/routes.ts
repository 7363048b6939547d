import type { ServerModule } from '../module';

/** 线上验卡 (second wave §4): the applications' review queue, their decisions and the configuration per card type and district. */
export const cardVerifyServer: ServerModule = {
  id: 'cardVerify',
  tables: [],
  routes() {},
};
