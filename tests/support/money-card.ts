import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { builtInPaymentChannel } from '../../src/server/lib/payment-channel';
import { createPii } from '../../src/server/lib/pii';
import { buyPackage, payOrder } from '../../src/server/modules/package-pay/service';
import { packages } from '../../src/server/modules/package-pay/schema';
import { createOrder as createTopUp, confirmWrite, pay, startWrite } from '../../src/server/modules/recharge/rider-side';
import { createOrder as createWalletOrder, payNotify } from '../../src/server/modules/rechargeable/money';
import { TEST_PII_KEY, type TestServer } from './test-server';

const DAY = 86_400_000;

/**
 * A card of the district whose holder has money in all three modules, made through the modules' own
 * rider-side functions: a paid 储值 top-up (a wallet of 200 元 principal), a live package of 10
 * rides, and two NFC top-ups of the card, one written and one still 写卡中 (so 补查 applies). Each
 * call takes a new card (a holder without a wallet yet).
 */
export async function moneyCard(s: TestServer, districtName = '徐汇区') {
  const db = s.database.db;
  const deps = { db, clock: s.clock, pii: createPii(TEST_PII_KEY), payments: builtInPaymentChannel({ refundFails: false }), config: s.config } as unknown as AppDeps;
  const [d] = await db.select().from(t.districts).where(eq(t.districts.name, districtName));
  const [c] = await db
    .select({ card: t.busCards })
    .from(t.busCards)
    .innerJoin(t.riders, eq(t.riders.id, t.busCards.riderId))
    .where(
      and(
        eq(t.busCards.districtId, d!.id),
        eq(t.riders.districtId, d!.id),
        eq(t.busCards.state, 1),
        sql`${t.busCards.balance} < 50000`,
        sql`not exists (select 1 from wallets w where w.rider_id = ${t.riders.id})`,
        sql`not exists (select 1 from recharge_orders o where o.card_no = ${t.busCards.cardNo})`,
      ),
    )
    .orderBy(asc(t.busCards.id))
    .limit(1);
  const card = c!.card;
  const riderId = card.riderId!;

  const wo = await createWalletOrder(deps, { riderId, amount: 20_000 });
  await payNotify(deps, wo.orderNo);

  const now = s.clock.now();
  const [p] = await db
    .insert(packages)
    .values({ districtId: d!.id, name: '卡片详情套餐', price: 3000, originalPrice: 4400, rides: 10, validDays: 30, saleStart: new Date(now.getTime() - DAY), saleEnd: new Date(now.getTime() + 30 * DAY), status: 1, createdAt: now, updatedAt: now })
    .returning();
  const po = await buyPackage(deps, { riderId, packageId: p!.id });
  await payOrder(deps, po.id);

  const written = await createTopUp(deps, { cardNo: card.cardNo, amount: 5_000 });
  await pay(deps, written.id);
  await startWrite(deps, written.id);
  await confirmWrite(deps, written.id, { txnSeq: String(900_000 + written.id), tac: 'ABCDEF01' });
  const writing = await createTopUp(deps, { cardNo: card.cardNo, amount: 3_000 });
  await pay(deps, writing.id);
  await startWrite(deps, writing.id);

  return { card, riderId, walletOrder: wo, packageOrderId: po.id, packageId: p!.id, written, writing };
}

/** Another paid 储值 top-up for the rider (a second refundable order). */
export async function topUpWallet(s: TestServer, riderId: number, amount: number) {
  const deps = { db: s.database.db, clock: s.clock, pii: createPii(TEST_PII_KEY), payments: builtInPaymentChannel({ refundFails: false }), config: s.config } as unknown as AppDeps;
  const o = await createWalletOrder(deps, { riderId, amount });
  await payNotify(deps, o.orderNo);
  return o;
}
