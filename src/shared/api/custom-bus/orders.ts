import type { Endpoint } from '../endpoint';

/** 订单记录、订单详情与定制汇总 (second wave §5): customOrder/ and customSummary/. */

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
