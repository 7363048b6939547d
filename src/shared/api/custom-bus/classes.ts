import type { Endpoint } from '../endpoint';

/** 班次管理 (second wave §5): customClasses/ — dated classes, batch scheduling, dispatch, cancellation. */

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
