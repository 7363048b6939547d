import { and, count, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { system } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { OPERATION_TYPES, type OperationType } from '../../lib/audit';
import { orderBy, paged } from '../../lib/paging';
import { inScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';

type LogQuery = z.output<typeof system.sysLogPage.query>;

export async function pageLogs(deps: AppDeps, a: AuthContext, q: LogQuery) {
  // Rows are scoped by the district they are about, not by where the operator sat (Decision 38).
  const where: (SQL | undefined)[] = [inScope(a, t.sysLog.targetDistrictId)];
  if (q.operationType) where.push(eq(t.sysLog.operationType, q.operationType));
  if (q.operator) where.push(contains(t.sysLog.operatorLogin, q.operator));
  if (q.result !== undefined) where.push(eq(t.sysLog.result, q.result));
  if (q.startTime) where.push(gte(t.sysLog.createdAt, new Date(q.startTime)));
  if (q.endTime) where.push(lte(t.sysLog.createdAt, new Date(q.endTime)));
  const cond = and(...where);
  const order = orderBy(q.sort, { createdDate: t.sysLog.createdAt, operationType: t.sysLog.operationType }, { column: t.sysLog.createdAt, dir: 'desc' }, t.sysLog.id);
  return paged(
    q,
    async (limit, offset) => (await deps.db.select().from(t.sysLog).where(cond).orderBy(...order).limit(limit).offset(offset)).map(toDto),
    () => deps.db.select({ n: count() }).from(t.sysLog).where(cond),
  );
}

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
