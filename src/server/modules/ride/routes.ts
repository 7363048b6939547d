import { ridership } from '../../../shared/api';
import * as t from '../../db/schema';
import { ensureAhead } from '../../lib/ride-partitions';
import type { ServerModule } from '../module';
import { rideDemoSeed } from './seed';
import * as service from './service';
import { employeeRecordsExport, recordTaskTitle, recordsExport, ridershipExport, ridershipTaskTitle } from './exports';
import { enqueueExport } from '../../lib/export-definition';

/** 乘车记录管理: ride records (partitioned by month) and the daily ridership kept with them. */
export const rideServer: ServerModule = {
  id: 'order',
  seed: { dependsOn: ['station', 'version', 'busUser'], demo: rideDemoSeed },
  tables: [t.rideRecords, t.dayTakeBusTotals],
  exportKinds: [recordsExport, employeeRecordsExport, ridershipExport],
  routes(b, deps) {
    b.bind(ridership.recordList, ({ auth, query }) => service.pageRecords(deps, auth, query));
    b.bind(ridership.recordSummary, ({ auth, query }) => service.recordSummary(deps, auth, query));
    b.bind(ridership.recordOrder, ({ auth, params }) => service.recordOrder(deps, auth, params.id));
    b.bind(ridership.ridershipLineCodes, ({ auth }) => service.lineCodes(deps, auth));
    b.bind(ridership.ridershipBusNames, ({ auth, query }) => service.busNames(deps, auth, query.lineCode));
    b.bind(ridership.ridershipTotal, ({ auth, query }) => service.ridershipTotal(deps, auth, query));
    b.bind(ridership.ridershipPage, ({ auth, query }) => service.ridershipPage(deps, auth, query));
    b.bind(ridership.recordExport, ({ auth, query }) => enqueueExport(deps, auth, recordsExport, query, recordTaskTitle('乘车记录', query)));
    b.bind(ridership.employeeRecordExport, ({ auth, query }) => enqueueExport(deps, auth, employeeRecordsExport, query, recordTaskTitle('员工乘车记录', query)));
    b.bind(ridership.ridershipExport, ({ auth, query }) => enqueueExport(deps, auth, ridershipExport, query, ridershipTaskTitle(query)));
  },
  // This month and the next two always have their partition, whichever instance gets there first;
  // from the start too: a database without the demo has none until then, and a ride in the default
  // partition would block creating its month.
  jobs: [{ name: 'ride-partitions', everyMs: 6 * 3600_000, atStart: true, run: (deps) => ensureAhead(deps.db, deps.clock.now()) }],
};
