import * as fleet from '../../../shared/api/custom-bus/fleet';
import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import { enqueueExport } from '../../lib/export-definition';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import { seedFleet } from './fleet-seed';
import * as service from './fleet-service';

/** 车辆与司机: binds this part's endpoints (api/custom-bus/fleet.ts). */
export function bindFleet(b: Binder, deps: AppDeps): void {
  const noStore = (reply: { header(k: string, v: string): unknown }) => () => void reply.header('cache-control', 'no-store');
  b.bind(fleet.carPage, ({ auth, query }) => service.pageCars(deps, auth, query));
  b.bind(fleet.carTotal, ({ auth, query }) => service.carTotals(deps, auth, query));
  b.bind(fleet.carExport, ({ auth, query }) => enqueueExport(deps, auth, service.carsExport, query, service.carExportTitle(query)));
  b.bind(fleet.carById, ({ auth, query }) => service.carById(deps, auth, query.id));
  b.bind(fleet.carSave, ({ auth, body }) => service.saveCar(deps, auth, body));
  b.bind(fleet.carUpdateStatus, ({ auth, body }) => service.updateCarStatus(deps, auth, body));
  b.bind(fleet.driverPage, ({ auth, query }) => service.pageDrivers(deps, auth, query));
  b.bind(fleet.driverPageByBody, ({ auth, body }) => service.pageDrivers(deps, auth, body));
  b.bind(fleet.driverTotal, ({ auth, query }) => service.driverTotals(deps, auth, query));
  b.bind(fleet.driverTotalByBody, ({ auth, body }) => service.driverTotals(deps, auth, body));
  b.bind(fleet.driverExport, ({ auth, query }) => enqueueExport(deps, auth, service.driversExport, query, service.driverExportTitle(query)));
  b.bind(fleet.driverById, ({ auth, query }) => service.driverById(deps, auth, query.id));
  b.bind(fleet.driverSave, ({ auth, body }) => service.saveDriver(deps, auth, body));
  b.bind(fleet.driverUpdateStatus, ({ auth, body }) => service.updateDriverStatus(deps, auth, body));
  b.bind(fleet.driverReveal, ({ auth, body, reply }) => service.revealDriver(deps, auth, body, noStore(reply)));
}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const fleetSeed: readonly SeedGenerator[] = [{ name: 'customBus.fleet', run: seedFleet }];
export const fleetJobs: readonly ModuleJob[] = [];
export const fleetExports: readonly AnyExportKind[] = [service.carsExport, service.driversExport];
