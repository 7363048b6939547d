import { moneyRefunds } from '../../db/schema';
import type { ServerModule } from '../module';
import { bindClasses, classesExports, classesJobs, classesSeed } from './classes-routes';
import { bindDemand, demandExports, demandJobs, demandSeed } from './demand-routes';
import { bindFleet, fleetExports, fleetJobs, fleetSeed } from './fleet-routes';
import { bindNetwork, networkExports, networkJobs, networkSeed } from './network-routes';
import { bindOrders, ordersExports, ordersJobs, ordersSeed } from './orders-routes';
import * as t from './schema';

/**
 * 定制公交 (second wave §5), in five parts each with its own routes, seed, jobs and exports: the
 * network (stations, lines, paths), the fleet (cars, drivers), classes (and the rider side's buying),
 * orders (with the summary) and demand. The seed runs the parts in that order, each reading what the
 * ones before it wrote.
 */
export const customBusServer: ServerModule = {
  id: 'customBus',
  // Riders buy and submit demand; stations may link to regular stops; orders keep the district's ladder.
  seed: { dependsOn: ['user', 'busUser', 'station', 'settings', 'customSetting'], demo: [...networkSeed, ...fleetSeed, ...classesSeed, ...ordersSeed, ...demandSeed] },
  tables: [t.customStations, t.customLines, t.customLineStops, t.customLinePaths, t.customCars, t.customDrivers, t.customClasses, t.customOrders, t.customTickets, t.customDemands, t.customDemandRecords],
  writes: [moneyRefunds],
  exportKinds: [...networkExports, ...fleetExports, ...classesExports, ...ordersExports, ...demandExports],
  jobs: [...networkJobs, ...fleetJobs, ...classesJobs, ...ordersJobs, ...demandJobs],
  routes(b, deps) {
    bindNetwork(b, deps);
    bindFleet(b, deps);
    bindClasses(b, deps);
    bindOrders(b, deps);
    bindDemand(b, deps);
  },
};
