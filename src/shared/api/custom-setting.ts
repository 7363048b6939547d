import type { Endpoint } from './endpoint';

/** 定制公交设置 (second wave §6, prefix /buscodepc/fyapi customSetting/): base settings, refund ladder versions. */

export const buttons = {
  CUSTOM_SETTING_UPDATE: '修改定制公交设置',
} as const;

/** Every endpoint of this module, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
