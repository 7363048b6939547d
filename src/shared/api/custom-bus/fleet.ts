import type { Endpoint } from '../endpoint';

/** 车辆管理与司机管理 (second wave §5): customCar/ and customDriver/. */

/** Every endpoint of this part, in the order the contract lists them. */
export const endpoints: readonly Endpoint[] = [];
