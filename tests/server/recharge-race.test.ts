import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/recharge';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { builtInCardCentre, useCardCentre } from '../../src/server/modules/recharge/card-ledger';
import { markSuspects } from '../../src/server/modules/recharge/jobs';
import { cardLoaded, confirmWrite, createOrder, failWrite, pay, startWrite } from '../../src/server/modules/recharge/rider-side';
import { cardCentreLoads, rechargeOrders } from '../../src/server/modules/recharge/schema';
import { MINUTE } from '../support/clock';
import { skipWithoutPostgres } from '../support/test-db';
import { type TestServer, startTestServer } from '../support/test-server';

/**
 * NFC充值's races on PostgreSQL (a pool, real row locks; second-wave §12 recharge-refund-write): refund
 * vs the rider's write-start, 50 refunds at once (one key, different keys), the suspect job vs a late
 * TAC, 补查 on two instances.
 */
describe.skipIf(skipWithoutPostgres('recharge races (refund vs write-start, 50 refunds, suspect job vs TAC, requery twice)'))('on PostgreSQL', () => {
  let s: TestServer;
  let admin: string;
  let manager: string;
  let cards: string[];
  let next = 0;
  const db = () => s.database.db;
  const deps = () => ({ db: s.database.db, clock: s.clock }) as unknown as AppDeps;

  beforeAll(async () => {
    // The jobs off: the test drives the suspect job itself.
    s = await startTestServer({}, { jobs: false });
    [admin, manager] = await Promise.all([s.login('admin'), s.login('manager')]);
    const xuhui = (await db().select().from(t.districts)).find((d) => d.name === '徐汇区')!.id;
    cards = (await db().select().from(t.busCards).where(and(eq(t.busCards.state, 1), eq(t.busCards.districtId, xuhui)))).filter((c) => c.balance < 20_000).map((c) => c.cardNo);
  });
  afterAll(() => s?.close());

  const stored = async (id: number) => (await db().select().from(rechargeOrders).where(eq(rechargeOrders.id, id)))[0]!;
  const audits = (type: string, ids: number[]) =>
    db()
      .select()
      .from(t.sysLog)
      .where(and(eq(t.sysLog.operationType, type), inArray(t.sysLog.target, ids.map((id) => `recharge/${id}`))));
  const refundRows = (id: number) =>
    db()
      .select()
      .from(t.moneyRefunds)
      .where(and(eq(t.moneyRefunds.kind, 'nfc'), eq(t.moneyRefunds.orderId, id)));
  const failedOrder = async () => {
    const o = await createOrder(deps(), { cardNo: cards[next++ % cards.length]!, amount: 3_000 });
    await pay(deps(), o.id);
    await startWrite(deps(), o.id);
    await failWrite(deps(), o.id, '卡片离开感应区');
    return o;
  };

  it('refund vs the rider’s write-start (both `where write_state in (0, 3)`): exactly one of refunded / writing, 20 times', async () => {
    for (let i = 0; i < 20; i++) {
      const o = await failedOrder();
      const [refund, started] = await Promise.all([
        s.call(api.rechargeRefund, { token: admin, body: { id: o.id, reason: '并发退款', idempotencyKey: `race-rw-${o.id}-${i}` } }),
        startWrite(deps(), o.id).catch(() => false),
      ]);
      const row = await stored(o.id);
      const refunded = refund.body.code === 1;
      expect(refunded !== started, `round ${i}: refunded ${refunded}, started ${started}`).toBe(true);
      if (refunded) {
        expect(row).toMatchObject({ writeState: 5, payStatus: 2 });
        expect(await refundRows(o.id)).toHaveLength(1);
      } else {
        expect(row).toMatchObject({ writeState: 1, payStatus: 1 });
        expect(refund.body.msg).toBe(api.REFUSAL.writing);
        expect(await refundRows(o.id)).toHaveLength(0);
      }
    }
  });

  it('a load the centre records while a refund is deciding: the refund asks under the order’s lock, so the load is either seen (refused) or lands on the closed order', async () => {
    const o = await failedOrder();
    let loadDone = false;
    let loadedWhileDeciding: boolean | null = null;
    let stateAfterLoad: number | null = null;
    let loading: Promise<unknown> | null = null;
    // The centre answers "no load", and the card's load is recorded right then, before the refund moves.
    useCardCentre((db) => {
      const real = builtInCardCentre(db);
      return {
        ...real,
        async loadOf(q) {
          const answer = await real.loadOf(q);
          if (q.orderNo === o.orderNo && !loading) {
            loading = cardLoaded(deps(), o.id, { txnSeq: `L${o.id}`, tac: 'FEED0001' }).then(async () => {
              loadDone = true;
              stateAfterLoad = (await stored(o.id)).writeState;
            });
            await Promise.race([loading, new Promise((r) => setTimeout(r, 300))]);
            loadedWhileDeciding = loadDone;
          }
          return answer;
        },
      };
    });
    try {
      const refund = await s.call(api.rechargeRefund, { token: admin, body: { id: o.id, reason: '并发退款', idempotencyKey: `race-centre-${o.id}` } });
      // Asked under the lock, the load could not be recorded while the refund decided: it waited for the refund to commit.
      expect(loadedWhileDeciding).toBe(false);
      expect(refund.body.code).toBe(1);
      await loading;
      expect(stateAfterLoad).toBe(5);
      expect(await stored(o.id)).toMatchObject({ writeState: 5, payStatus: 2 });
      expect(await db().select().from(cardCentreLoads).where(eq(cardCentreLoads.orderNo, o.orderNo))).toHaveLength(1);
    } finally {
      useCardCentre(null);
      await loading;
    }
  });

  it('refund vs the centre recording the load (no confirmation reaches us), 20 times: refused when the load came first, else the load lands after the refund', async () => {
    for (let i = 0; i < 20; i++) {
      const o = await failedOrder();
      let stateAfterLoad: number | null = null;
      const [refund] = await Promise.all([
        s.call(api.rechargeRefund, { token: i % 2 ? admin : manager, body: { id: o.id, reason: '并发退款', idempotencyKey: `race-load-${o.id}` } }),
        cardLoaded(deps(), o.id, { txnSeq: `M${o.id}`, tac: 'FEED0002' }).then(async () => {
          stateAfterLoad = (await stored(o.id)).writeState;
        }),
      ]);
      if (refund.body.code === 1) {
        // The refund committed first: the load found the order already closed (圈存未付 for 圈存日对账).
        expect(stateAfterLoad, `round ${i}: refunded although the load was recorded on an open order`).toBe(5);
        expect(await refundRows(o.id)).toHaveLength(1);
      } else {
        expect(refund.body.msg, `round ${i}`).toBe(api.REFUSAL.centreHasLoad);
        expect(stateAfterLoad).toBe(3);
        expect(await stored(o.id)).toMatchObject({ writeState: 3, payStatus: 1 });
        expect(await refundRows(o.id)).toHaveLength(0);
      }
    }
  });

  it('50 concurrent refunds with one key: one refund row, one audit row, every answer the same refund', async () => {
    const o = await failedOrder();
    const body = { id: o.id, reason: '并发退款', idempotencyKey: `race-one-key-${o.id}` };
    const answers = await Promise.all(Array.from({ length: 50 }, () => s.call(api.rechargeRefund, { token: admin, body })));
    expect(answers.every((a) => a.body.code === 1)).toBe(true);
    expect(new Set(answers.map((a) => a.body.data.refund.id)).size).toBe(1);
    expect(answers.filter((a) => !a.body.data.replayed)).toHaveLength(1);
    expect(await refundRows(o.id)).toHaveLength(1);
    expect(await audits('RECHARGE_REFUND', [o.id])).toHaveLength(1);
  });

  it('50 concurrent refunds with different keys: one refund, the others refused 订单已退款', async () => {
    const o = await failedOrder();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => s.call(api.rechargeRefund, { token: i % 2 ? admin : manager, body: { id: o.id, reason: '并发退款', idempotencyKey: `race-keys-${o.id}-${i}` } })));
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code !== 1).every((a) => a.body.msg === api.REFUSAL.refunded)).toBe(true);
    expect(await refundRows(o.id)).toHaveLength(1);
    expect(await audits('RECHARGE_REFUND', [o.id])).toHaveLength(1);
    expect(await stored(o.id)).toMatchObject({ writeState: 5, payStatus: 2 });
  });

  it('the suspect job vs a late TAC: 写卡成功 wins, never 4 after 2 (30 orders, both at once)', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const o = await createOrder(deps(), { cardNo: cards[next++ % cards.length]!, amount: 2_000 });
      await pay(deps(), o.id);
      await startWrite(deps(), o.id);
      ids.push(o.id);
    }
    s.clock.advance(6 * MINUTE);
    try {
      await Promise.all([markSuspects(deps()), markSuspects(deps()), ...ids.map((id) => confirmWrite(deps(), id, { txnSeq: `T${id}`, tac: 'C0FFEE01' }))]);
      await markSuspects(deps());
      const rows = await db().select().from(rechargeOrders).where(inArray(rechargeOrders.id, ids));
      expect(rows.every((r) => r.writeState === 2)).toBe(true);
      // Each order went to 可疑 at most once, and those that did were settled by the late TAC with one row each.
      const suspects = await audits('RECHARGE_SUSPECT', ids);
      const late = await audits('RECHARGE_AUTO_RESOLVE', ids);
      expect(new Set(suspects.map((a) => a.target)).size).toBe(suspects.length);
      expect(late.length).toBe(suspects.length);
    } finally {
      s.clock.advance(-6 * MINUTE);
    }
  });

  it('补查 on two instances at once: one resolution, one audit row', async () => {
    for (let i = 0; i < 5; i++) {
      const o = await createOrder(deps(), { cardNo: cards[next++ % cards.length]!, amount: 5_000 });
      await pay(deps(), o.id);
      await startWrite(deps(), o.id);
      await cardLoaded(deps(), o.id, { txnSeq: `Q${o.id}`, tac: 'BEEF0001' });
      await db().update(rechargeOrders).set({ writeState: 4 }).where(eq(rechargeOrders.id, o.id));
      const [a, b] = await Promise.all([s.call(api.rechargeRequery, { token: admin, body: { id: o.id } }), s.call(api.rechargeRequery, { token: manager, body: { id: o.id } })]);
      expect([a.body.data.resolved, b.body.data.resolved].sort()).toEqual([false, true]);
      expect(await audits('RECHARGE_REQUERY', [o.id])).toHaveLength(1);
      expect((await stored(o.id)).writeState).toBe(2);
    }
  });
});
