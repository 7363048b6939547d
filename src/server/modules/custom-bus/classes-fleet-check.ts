import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { customCars, customDrivers } from './schema';

/**
 * Whether a car and a driver may take a class (second wave §5's refusals), in the design's words:
 * a car under repair, a car whose inspection or a driver whose licence has lapsed by the class's day,
 * a class issuing more seats than the car carries. Clashes with other classes are scheduling's
 * (classes-service.ts), not this. A private stand-in with the fleet part's signature, swapped for
 * its `fleetProblems` at merge.
 */
export interface FleetCheck {
  carId: number | null | undefined;
  driverId: number | null | undefined;
  departAt: Date;
  arriveAt: Date;
  /** The class's Shanghai day: a document valid through that day covers it. */
  departDate: string;
  publish: number;
}

export async function fleetProblems(db: Db, c: FleetCheck): Promise<string[]> {
  const problems: string[] = [];
  if (c.carId) {
    const [car] = await db.select().from(customCars).where(eq(customCars.id, c.carId));
    if (car) {
      if (car.status === 2) problems.push('车辆维修中，不能排班');
      if (car.inspectionUntil < c.departDate) problems.push('车辆年检已过期，不能排班');
      if (c.publish > car.seats) problems.push(`发行数量不能超过车辆核载座位数（${car.seats}）`);
    }
  }
  if (c.driverId) {
    const [driver] = await db.select().from(customDrivers).where(eq(customDrivers.id, c.driverId));
    if (driver && driver.licenceUntil < c.departDate) problems.push('司机驾驶证已过期，不能排班');
  }
  return problems;
}
