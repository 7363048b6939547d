import * as net from '../../../shared/api/custom-bus/network';
import type { AppDeps } from '../../context';
import type { SeedGenerator } from '../../db/seed/context';
import { enqueueExport } from '../../lib/export-definition';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import type { AnyExportKind } from '../../lib/export-tasks';
import { networkDemoSeed } from './network-seed';
import * as service from './network-service';

/** 定制站点、定制线路与轨迹: binds this part's endpoints (api/custom-bus/network.ts). */
export function bindNetwork(b: Binder, deps: AppDeps): void {
  b.bind(net.stationPage, ({ auth, query }) => service.pageStations(deps, auth, query));
  b.bind(net.stationTotal, ({ auth, query }) => service.stationTotals(deps, auth, query));
  b.bind(net.stationExport, ({ auth, query }) => enqueueExport(deps, auth, service.stationsExport, query, service.stationExportTitle(query)));
  b.bind(net.stationSave, ({ auth, body }) => service.saveStation(deps, auth, body));
  b.bind(net.stationUpdateStatus, ({ auth, body }) => service.updateStationStatus(deps, auth, body));
  b.bind(net.stationDelete, ({ auth, query }) => service.deleteStation(deps, auth, query.id));
  b.bind(net.linePage, ({ auth, query }) => service.pageLines(deps, auth, query));
  b.bind(net.lineTotal, ({ auth, query }) => service.lineTotals(deps, auth, query));
  b.bind(net.lineExport, ({ auth, query }) => enqueueExport(deps, auth, service.linesExport, query, service.lineExportTitle(query)));
  b.bind(net.lineById, ({ auth, query }) => service.lineById(deps, auth, query.id));
  b.bind(net.lineSave, ({ auth, body }) => service.saveLine(deps, auth, body));
  b.bind(net.lineUpdateStatus, ({ auth, body }) => service.updateLineStatus(deps, auth, body));
  b.bind(net.lineDelete, ({ auth, query }) => service.deleteLine(deps, auth, query.id));
  b.bind(net.linePath, ({ auth, query }) => service.linePath(deps, auth, query.lineId));
  b.bind(net.linePathSave, ({ auth, body }) => service.savePath(deps, auth, body));
}

/** This part's demo seed, run in order after the parts before it (routes.ts). */
export const networkSeed: readonly SeedGenerator[] = networkDemoSeed;
export const networkJobs: readonly ModuleJob[] = [];
export const networkExports: readonly AnyExportKind[] = [service.stationsExport, service.linesExport];
