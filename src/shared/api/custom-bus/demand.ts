import type { Endpoint } from '../endpoint';

/** 定制列表与定制记录 (second wave §5): customDemand/ — demand, submissions, the heat map and 需求成线. */

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
