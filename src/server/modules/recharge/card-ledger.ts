import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { fail } from '../../lib/errors';
import { type CardCentre, type CardCentreLoad, ownCardCheck } from '../../lib/card-centre';
import { cardCentreLoads } from './schema';

type LoadRow = typeof cardCentreLoads.$inferSelect;

const load = (r: LoadRow): CardCentreLoad => ({
  centreTxnNo: r.centreTxnNo,
  cardNo: r.cardNo,
  orderNo: r.orderNo,
  txnSeq: r.txnSeq,
  tac: r.tac,
  amount: r.amount,
  befBal: r.befBal,
  aftBal: r.aftBal,
  loadedAt: r.loadedAt,
  settleDay: r.settleDay,
});

/**
 * The built-in card centre: the card check from our card table, loads and the day's settlement from
 * our card ledger (card_centre_loads), which only a card's actual load writes (recharge service
 * `cardLoaded`). It answers from its own record, never from the order's state.
 */
export const builtInCardCentre = (db: Db): CardCentre => ({
  check: (cardNo) => ownCardCheck(db, cardNo),
  async loadOf({ cardNo, orderNo, txnSeq }) {
    const byOrder = eq(cardCentreLoads.orderNo, orderNo);
    const [row] = await db
      .select()
      .from(cardCentreLoads)
      .where(and(eq(cardCentreLoads.cardNo, cardNo), txnSeq ? or(byOrder, eq(cardCentreLoads.txnSeq, txnSeq)) : byOrder))
      .limit(1);
    return row ? load(row) : null;
  },
  async settlement(day) {
    return (await db.select().from(cardCentreLoads).where(eq(cardCentreLoads.settleDay, day)).orderBy(cardCentreLoads.id)).map(load);
  },
});

/**
 * The centre the module asks. Tests and an operator's integration replace it (a real centre, or one
 * that answers late); by default the built-in one over the request's database.
 */
let override: ((db: Db) => CardCentre) | null = null;
export const cardCentreOf = (db: Db): CardCentre => (override ?? builtInCardCentre)(db);
export function useCardCentre(make: ((db: Db) => CardCentre) | null, answerMs = CENTRE_ANSWER_MS): void {
  override = make;
  centreAnswerMs = answerMs;
}

/** How long a question to the centre may hold an order's row lock (a refund, a rider's retry). */
export const CENTRE_ANSWER_MS = 5_000;
let centreAnswerMs = CENTRE_ANSWER_MS;

/**
 * The centre's record of one load, asked inside a transaction that holds the order's row lock: a
 * centre that does not answer in time is a refusal (nothing changes, the person tries again), not a
 * lock held and a pool connection taken for as long as the network hangs.
 */
export async function loadOfWithin(db: Db, q: Parameters<CardCentre['loadOf']>[0]): Promise<CardCentreLoad | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fail('卡中心暂无应答，请稍后重试')), centreAnswerMs);
  });
  try {
    return await Promise.race([cardCentreOf(db).loadOf(q), late]);
  } finally {
    clearTimeout(timer);
  }
}
