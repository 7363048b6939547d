import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import * as api from '../../../shared/api/recharge';
import { SUSPECT_AFTER_MS, WRITE_STATE, type WriteState } from '../../../shared/api/recharge';
import { fenToYuan } from '../../../shared/domain/money';
import { addDays, shanghaiDate, shanghaiDateTime, shanghaiMidnight } from '../../../shared/domain/time';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { type ExportReader, type ExportScope, defineExport, keysetRows, yuanCell } from '../../lib/export-definition';
import type { CardCentre, CardCentreLoad } from '../../lib/card-centre';
import { paged } from '../../lib/paging';
import { inScope } from '../../lib/scope';
import { iso } from '../../lib/sql';
import { nextVersion } from '../../lib/row-version';
import { cardCentreOf } from './card-ledger';
import { rechargeAttempts, rechargeOrders as o, rechargeReconcileItems as items, rechargeSettlementDays } from './schema';
import { SYSTEM_ACTOR } from './service';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * The job recharge.suspect: a write without the card's answer for 5 minutes is 可疑. Each order is
 * taken by one instance (`for update skip locked`) and moved only from 写卡中 (`where write_state =
 * 1`), so a confirmation that got there first keeps its 写卡成功: never 4 after 2.
 */
export async function markSuspects(deps: Deps): Promise<number[]> {
  const done: number[] = [];
  for (;;) {
    const now = deps.clock.now();
    const batch = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: o.id, orderNo: o.orderNo, districtId: o.districtId })
        .from(o)
        .where(and(eq(o.writeState, 1), lte(o.writeStartedAt, new Date(now.getTime() - SUSPECT_AFTER_MS))))
        .orderBy(asc(o.writeStartedAt), asc(o.id))
        .limit(50)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      const moved = await tx
        .update(o)
        .set({ writeState: 4, suspectAt: now, updatedAt: now, rowVersion: nextVersion(o.rowVersion) })
        .where(and(inArray(o.id, due.map((d) => d.id)), eq(o.writeState, 1)))
        .returning({ id: o.id });
      for (const m of moved) {
        const d = due.find((x) => x.id === m.id)!;
        await tx.insert(rechargeAttempts).values({ orderId: d.id, at: now, step: 'suspect', result: 0, detail: '写卡5分钟未收到卡片确认' });
        await audit(tx, SYSTEM_ACTOR, { type: 'RECHARGE_SUSPECT', targetDistrictId: d.districtId, target: `recharge/${d.id}`, summary: `充值订单 ${d.orderNo} 写卡5分钟未确认，转为可疑`, before: { writeState: 1 }, after: { writeState: 4 } }, now);
      }
      return moved.map((m) => m.id);
    });
    if (!batch.length) return done;
    done.push(...batch);
  }
}

/**
 * A 可疑 order resolves itself when the centre's record of its load appears in a settled day's file: 4 → 2 from that record, one instance each (skip locked), with a system audit row.
 * Never 4 → 3: no record is not proof of no load; that is a person's 核实.
 */
export async function resolveFromCentre(deps: Deps, centre: CardCentre = cardCentreOf(deps.db)): Promise<number[]> {
  const suspects = await deps.db.select({ id: o.id, cardNo: o.cardNo, orderNo: o.orderNo, txnSeq: o.txnSeq }).from(o).where(eq(o.writeState, 4)).orderBy(asc(o.id)).limit(1_000);
  const done: number[] = [];
  const today = shanghaiDate(deps.clock.now());
  for (const s of suspects) {
    const load = await centre.loadOf(s);
    // Only a load in a settled day's file: today's loads are 补查's to find (an operator asks).
    if (!load || load.settleDay >= today) continue;
    const now = deps.clock.now();
    const moved = await deps.db.transaction(async (tx) => {
      const [row] = await tx.select({ id: o.id, districtId: o.districtId }).from(o).where(and(eq(o.id, s.id), eq(o.writeState, 4))).for('update', { skipLocked: true });
      if (!row) return false;
      await tx
        .update(o)
        .set({ writeState: 2, txnSeq: load.txnSeq, tac: load.tac, befBal: load.befBal, aftBal: load.aftBal, writtenAt: load.loadedAt, centreTxnNo: load.centreTxnNo, resolvedAt: now, resolutionNote: '卡中心记录确认到账', updatedAt: now, rowVersion: nextVersion(o.rowVersion) })
        .where(and(eq(o.id, s.id), eq(o.writeState, 4)));
      await tx.insert(rechargeAttempts).values({ orderId: s.id, at: now, step: 'reconcile', result: 1, detail: `卡中心流水 ${load.centreTxnNo}` });
      await audit(tx, SYSTEM_ACTOR, { type: 'RECHARGE_AUTO_RESOLVE', targetDistrictId: row.districtId, target: `recharge/${s.id}`, summary: `充值订单 ${s.orderNo} 卡中心有圈存记录（流水 ${load.centreTxnNo}），可疑 → 写卡成功`, before: { writeState: 4 }, after: { writeState: 2, centreTxnNo: load.centreTxnNo } }, now);
      return true;
    });
    if (moved) done.push(s.id);
  }
  return done;
}

type OrderRow = typeof o.$inferSelect;
interface Anomaly {
  kind: 1 | 2 | 3;
  districtId: number | null;
  orderId: number | null;
  orderNo: string;
  cardNo: string;
  orderAmount: number | null;
  centreAmount: number | null;
  centreTxnNo: string | null;
  note: string;
}

const label = (w: number) => WRITE_STATE.label(w as WriteState);

/** What one centre load and its order (if any) disagree on, or null. */
function loadAnomaly(l: CardCentreLoad, ord: OrderRow | undefined, cardDistrict: number | null): Anomaly | null {
  const base = { orderNo: l.orderNo, cardNo: l.cardNo, centreAmount: l.amount, centreTxnNo: l.centreTxnNo };
  if (!ord) return { ...base, kind: 2, districtId: cardDistrict, orderId: null, orderAmount: null, note: '卡中心有圈存记录，无对应充值订单' };
  const of = { ...base, districtId: ord.districtId, orderId: ord.id, orderAmount: ord.amount };
  if (ord.payStatus !== 1) return { ...of, kind: 2, note: ord.payStatus === 0 ? '卡中心有圈存记录，订单未支付' : '卡中心有圈存记录，订单已退款' };
  if (ord.amount !== l.amount) return { ...of, kind: 3, note: `订单 ${fenToYuan(ord.amount)} 元，卡中心 ${fenToYuan(l.amount)} 元` };
  // 写卡中/可疑 settle from the record by themselves; 待写卡/写卡失败 with a load are a contradiction.
  if (ord.writeState === 0 || ord.writeState === 3) return { ...of, kind: 2, note: `卡中心有圈存记录，订单为${label(ord.writeState)}` };
  return null;
}

/** A paid order of the day the centre has no load of. */
const unloadedAnomaly = (ord: OrderRow): Anomaly => ({
  kind: 1,
  districtId: ord.districtId,
  orderId: ord.id,
  orderNo: ord.orderNo,
  cardNo: ord.cardNo,
  orderAmount: ord.amount,
  centreAmount: null,
  centreTxnNo: null,
  note: ord.writeState === 2 ? '订单记为写卡成功，卡中心无圈存记录' : `已支付，${label(ord.writeState)}，卡中心无圈存记录`,
});

/**
 * 圈存日对账 of one Shanghai day: the centre's settlement file against our orders. The centre is asked
 * first, outside any transaction (a network call; PGlite has one connection); then the day's row is
 * inserted (`on conflict do nothing`): the instance that inserts it writes the day's worklist in that
 * transaction, any other finds it taken. Answers the anomalies written, or null when the day was done.
 */
export async function reconcileDay(deps: Deps, day: string, centre: CardCentre = cardCentreOf(deps.db)): Promise<number | null> {
  const [done] = await deps.db.select({ day: rechargeSettlementDays.day }).from(rechargeSettlementDays).where(eq(rechargeSettlementDays.day, day));
  if (done) return null;
  const loads = await centre.settlement(day);
  const found: Anomaly[] = [];
  const orderNos = loads.map((l) => l.orderNo);
  const orders = orderNos.length ? await deps.db.select().from(o).where(inArray(o.orderNo, orderNos)) : [];
  const byNo = new Map(orders.map((r) => [r.orderNo, r]));
  const orphanCards = loads.filter((l) => !byNo.has(l.orderNo)).map((l) => l.cardNo);
  const cards = orphanCards.length ? await deps.db.select({ cardNo: t.busCards.cardNo, districtId: t.busCards.districtId }).from(t.busCards).where(inArray(t.busCards.cardNo, orphanCards)) : [];
  for (const l of loads) {
    const a = loadAnomaly(l, byNo.get(l.orderNo), cards.find((c) => c.cardNo === l.cardNo)?.districtId ?? null);
    if (a) found.push(a);
  }
  const inFile = new Set(orderNos);
  const paid = await deps.db
    .select()
    .from(o)
    .where(and(gte(o.paidAt, shanghaiMidnight(day)), lt(o.paidAt, shanghaiMidnight(addDays(day, 1)))));
  for (const ord of paid.filter((p) => p.payStatus === 1 && !inFile.has(p.orderNo))) {
    // Loaded on another day (written after midnight): the centre knows it, no anomaly.
    if (await centre.loadOf(ord)) continue;
    found.push(unloadedAnomaly(ord));
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [taken] = await tx
      .insert(rechargeSettlementDays)
      .values({ day, centreLoads: loads.length, centreAmount: loads.reduce((sum, l) => sum + l.amount, 0), paidOrders: paid.length, anomalies: found.length, ranAt: now })
      .onConflictDoNothing()
      .returning({ day: rechargeSettlementDays.day });
    if (!taken) return null;
    if (found.length) await tx.insert(items).values(found.map((f) => ({ ...f, day, status: 0, createdAt: now }))).onConflictDoNothing();
    await audit(
      tx,
      SYSTEM_ACTOR,
      { type: 'RECHARGE_RECONCILE', targetDistrictId: null, target: `recharge-day/${day}`, summary: `圈存日对账 ${day}：卡中心 ${loads.length} 笔，已付订单 ${paid.length} 笔，差异 ${found.length} 笔`, after: { day, centreLoads: loads.length, paidOrders: paid.length, anomalies: found.length } },
      now,
    );
    return found.length;
  });
}

/** Open worklist items that agree now (refunded, written, settled): 已消除. */
export async function clearSettled(deps: Deps, centre: CardCentre = cardCentreOf(deps.db)): Promise<number> {
  const open = await deps.db.select().from(items).where(eq(items.status, 0)).orderBy(asc(items.id)).limit(2_000);
  const cleared: number[] = [];
  for (const it of open) {
    if (it.kind === 3) continue;
    const [ord] = await deps.db.select().from(o).where(eq(o.orderNo, it.orderNo));
    const load = ord ? await centre.loadOf(ord) : await centre.loadOf({ cardNo: it.cardNo, orderNo: it.orderNo });
    const still = load ? loadAnomaly(load, ord, it.districtId) : ord && ord.payStatus === 1 ? unloadedAnomaly(ord) : null;
    if (!still || still.kind !== it.kind) cleared.push(it.id);
  }
  if (cleared.length) await deps.db.update(items).set({ status: 1, clearedAt: deps.clock.now() }).where(and(inArray(items.id, cleared), eq(items.status, 0)));
  return cleared.length;
}

/** How far back a first run (or one after a long stop) matches: a week of settlement files. */
const CATCH_UP_DAYS = 7;

/**
 * The job recharge.reconcile: 可疑 orders the centre now shows are settled; every finished day
 * not yet matched (up to a week back) is matched once; open items that agree now are cleared.
 */
export async function reconcile(deps: Deps): Promise<{ resolved: number[]; days: Record<string, number>; cleared: number }> {
  const centre = cardCentreOf(deps.db);
  const resolved = await resolveFromCentre(deps, centre);
  const yesterday = addDays(shanghaiDate(deps.clock.now()), -1);
  const [last] = await deps.db.select({ day: rechargeSettlementDays.day }).from(rechargeSettlementDays).orderBy(desc(rechargeSettlementDays.day)).limit(1);
  const floor = addDays(yesterday, -(CATCH_UP_DAYS - 1));
  let day = last && last.day >= floor ? addDays(last.day, 1) : floor;
  const days: Record<string, number> = {};
  for (; day <= yesterday; day = addDays(day, 1)) {
    const n = await reconcileDay(deps, day, centre);
    if (n !== null) days[day] = n;
  }
  const cleared = await clearSettled(deps, centre);
  return { resolved, days, cleared };
}

type ReconcileQuery = z.output<typeof api.rechargeReconcilePage.query>;

/** The worklist's rows a caller (or an export asked under its scope) reads with these filters. */
const reconcileWhere = (a: ExportScope, q: api.ReconcileFilters) =>
  and(inScope(a, items.districtId), q.kind ? eq(items.kind, q.kind) : undefined, q.status !== undefined ? eq(items.status, q.status) : undefined, q.day ? eq(items.day, q.day) : undefined);

const reconcileDto = (r: typeof items.$inferSelect): api.ReconcileItem => ({
  id: r.id,
  day: r.day,
  kind: r.kind as 1 | 2 | 3,
  status: r.status as 0 | 1,
  orderId: r.orderId,
  orderNo: r.orderNo,
  cardNo: r.cardNo,
  orderAmount: r.orderAmount,
  centreAmount: r.centreAmount,
  centreTxnNo: r.centreTxnNo,
  note: r.note,
  createdDate: iso(r.createdAt),
  clearedDate: r.clearedAt ? iso(r.clearedAt) : null,
});

/** 圈存日对账's worklist: open items first, newest day first. */
export async function reconcilePage(deps: AppDeps, a: AuthContext, q: ReconcileQuery) {
  const cond = reconcileWhere(a, q);
  const dir = q.sort === 'day,asc' ? asc(items.day) : desc(items.day);
  return paged(
    q,
    async (limit, offset) => (await deps.db.select().from(items).where(cond).orderBy(asc(items.status), dir, asc(items.id)).limit(limit).offset(offset)).map(reconcileDto),
    () => deps.db.select({ n: count() }).from(items).where(cond),
  );
}

/** The worklist's summary line: by kind, how many (how many still open) and the amounts on each side. */
export async function reconcileTotals(deps: AppDeps, a: AuthContext, q: api.ReconcileFilters) {
  const rows = await deps.db
    .select({
      kind: items.kind,
      count: sql<number>`count(*)::int`,
      open: sql<number>`count(*) filter (where ${items.status} = 0)::int`,
      orderAmount: sql<number>`coalesce(sum(${items.orderAmount}), 0)::bigint`,
      centreAmount: sql<number>`coalesce(sum(${items.centreAmount}), 0)::bigint`,
    })
    .from(items)
    .where(reconcileWhere(a, { ...q, kind: undefined }))
    .groupBy(items.kind);
  const byKind: Record<string, { count: number; open: number; orderAmount: number; centreAmount: number }> = {};
  for (const code of api.RECONCILE_KIND.codes) {
    const r = rows.find((x) => x.kind === code);
    byKind[String(code)] = { count: Number(r?.count ?? 0), open: Number(r?.open ?? 0), orderAmount: Number(r?.orderAmount ?? 0), centreAmount: Number(r?.centreAmount ?? 0) };
  }
  return { total: rows.reduce((n, r) => n + Number(r.count), 0), open: rows.reduce((n, r) => n + Number(r.open), 0), byKind };
}

/** 圈存日对账 as a task: the day's (or every day's) items in the order they were found. */
export const reconcileExport = defineExport({
  id: 'recharge.reconcile',
  permission: api.rechargeReconcileExport.permission,
  sheet: '圈存日对账',
  columns: [
    { header: '清算日', width: 12, cell: (r: api.ReconcileItem) => r.day },
    { header: '差异类型', width: 10, cell: (r) => api.RECONCILE_KIND.label(r.kind) },
    { header: '订单号', width: 26, cell: (r) => r.orderNo },
    { header: '卡号', width: 20, cell: (r) => r.cardNo },
    { header: '订单金额（元）', width: 12, cell: (r) => yuanCell(r.orderAmount) },
    { header: '卡中心金额（元）', width: 14, cell: (r) => yuanCell(r.centreAmount) },
    { header: '卡中心流水号', width: 20, cell: (r) => r.centreTxnNo },
    { header: '说明', width: 40, cell: (r) => r.note },
    { header: '处理状态', width: 8, cell: (r) => api.RECONCILE_STATUS.label(r.status) },
    { header: '发现时间', width: 20, cell: (r) => shanghaiDateTime(r.createdDate) },
    { header: '消除时间', width: 20, cell: (r) => (r.clearedDate ? shanghaiDateTime(r.clearedDate) : '') },
  ],
  rows: keysetRows({
    count: async (r: ExportReader, q: api.ReconcileFilters) => (await r.deps.db.select({ n: count() }).from(items).where(reconcileWhere(r.scope, q)))[0]?.n ?? 0,
    read: async (r: ExportReader, q: api.ReconcileFilters, after: number | null, limit: number) =>
      (await r.deps.db.select().from(items).where(and(reconcileWhere(r.scope, q), after === null ? undefined : gt(items.id, after))).orderBy(asc(items.id)).limit(limit)).map(reconcileDto),
    cursor: (row) => row.id,
  }),
  audit: { operation: 'RECHARGE_RECONCILE_EXPORT' },
});

export const reconcileExportTitle = (q: api.ReconcileFilters) =>
  ['圈存日对账', q.day ?? '', q.kind !== undefined ? api.RECONCILE_KIND.label(q.kind as 1) : '', q.status !== undefined ? api.RECONCILE_STATUS.label(q.status as 0) : ''].filter(Boolean).join(' ');
