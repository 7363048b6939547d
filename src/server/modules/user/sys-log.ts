import { count, eq, gte, lte } from 'drizzle-orm';
import type { z } from 'zod';
import { system } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { OPERATION_TYPES, type OperationType } from '../../lib/audit';
import { listService } from '../../lib/list';
import { contains, iso } from '../../lib/sql';

type LogQuery = z.output<typeof system.sysLogPage.query>;

/** 系统日志: the log rows about the area, by operation, operator, result and time, newest first. */
const logList = listService({
  endpoint: system.sysLogPage,
  select: (db) => db.select().from(t.sysLog),
  count: (db) => db.select({ n: count() }).from(t.sysLog),
  // Rows are scoped by the district they are about, not by where the operator sat (Decision 38).
  scope: t.sysLog.targetDistrictId,
  filters: {
    operationType: (type) => eq(t.sysLog.operationType, type),
    operator: (login) => contains(t.sysLog.operatorLogin, login),
    result: (result) => eq(t.sysLog.result, result),
    startTime: (from) => gte(t.sysLog.createdAt, new Date(from)),
    endTime: (to) => lte(t.sysLog.createdAt, new Date(to)),
  },
  sorts: { createdDate: t.sysLog.createdAt, operationType: t.sysLog.operationType },
  order: { column: t.sysLog.createdAt, dir: 'desc' },
  key: { column: t.sysLog.id, of: (r) => r.id },
  dto: (r) => toDto(r),
});

export const pageLogs = (deps: AppDeps, a: AuthContext, q: LogQuery) => logList.page(deps, a, q);

const toDto = (r: typeof t.sysLog.$inferSelect) => ({
  id: r.id,
  operatorId: r.operatorId,
  operatorLogin: r.operatorLogin,
  operationType: r.operationType,
  operationLabel: OPERATION_TYPES[r.operationType as OperationType] ?? r.operationType,
  target: r.target,
  summary: r.summary,
  before: r.before,
  after: r.after,
  ip: r.ip,
  result: r.result === 1 ? (1 as const) : (0 as const),
  districtId: r.districtId,
  targetDistrictId: r.targetDistrictId,
  createdDate: iso(r.createdAt),
});

export const operationTypes = () => Object.entries(OPERATION_TYPES).map(([value, label]) => ({ value, label }));
