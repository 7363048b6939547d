import { and, asc, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { parseSort, type system, toPage } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { OPERATION_TYPES, type OperationType } from '../../lib/audit';
import { contains, iso } from '../../lib/sql';

type LogQuery = z.output<typeof system.sysLogPage.query>;

export async function pageLogs(deps: AppDeps, a: AuthContext, q: LogQuery) {
  const where: SQL[] = [];
  // By what the row is about, not where the operator worked: a super user editing an account
  // without choosing a district must not land the row in some other district's log.
  if (a.districtScope !== null) where.push(eq(t.sysLog.targetDistrictId, a.districtScope));
  if (q.operationType) where.push(eq(t.sysLog.operationType, q.operationType));
  if (q.operator) where.push(contains(t.sysLog.operatorLogin, q.operator));
  if (q.result !== undefined) where.push(eq(t.sysLog.result, q.result));
  if (q.startTime) where.push(gte(t.sysLog.createdAt, new Date(q.startTime)));
  if (q.endTime) where.push(lte(t.sysLog.createdAt, new Date(q.endTime)));
  const cond = where.length ? and(...where) : undefined;
  const sort = parseSort<'createdDate' | 'operationType'>(q.sort);
  const column = sort?.field === 'operationType' ? t.sysLog.operationType : t.sysLog.createdAt;
  const order = sort?.dir === 'asc' ? asc(column) : desc(column);
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(t.sysLog).where(cond).orderBy(order, desc(t.sysLog.id)).limit(q.size).offset(q.page * q.size),
    deps.db.select({ n: count() }).from(t.sysLog).where(cond),
  ]);
  return toPage(
    rows.map((r) => ({
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
    })),
    total?.n ?? 0,
    q.page,
    q.size,
  );
}

export const operationTypes = () => Object.entries(OPERATION_TYPES).map(([value, label]) => ({ value, label }));
