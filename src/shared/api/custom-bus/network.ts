import type { Endpoint } from '../endpoint';

/** 定制站点、定制线路与轨迹 (second wave §5): customStation/ and customLine/. */

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
