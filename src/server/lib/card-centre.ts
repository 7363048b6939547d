import { eq } from 'drizzle-orm';
import type { Db } from '../db/connection';
import * as t from '../db/schema';

/**
 * The card centre (卡中心, spec `checkCardFromKZX`) behind an interface: what it knows of a card, of
 * one load (圈存) onto it, and of a day's loads (its settlement file). The console trusts no answer
 * of its own about money on a card: NFC充值's 核实 and 退款 ask this, never the order's own state
 * (second-wave §3). The built-in centre reads our own tables (README decision 76); an operator's
 * real centre is another implementation of the same interface.
 */
export interface CardCentre {
  check(cardNo: string): Promise<{ exists: boolean; state: number | null; category: number | null }>;
  /**
   * The centre's record of one load: found by the card and our order number (the centre stores the
   * order number the terminal sent), or by the card and its transaction sequence (txnSeq). null:
   * the centre has no such load (yet: a real centre may take minutes to sync).
   */
  loadOf(q: { cardNo: string; orderNo: string; txnSeq?: string | null }): Promise<CardCentreLoad | null>;
  /** Every load the centre settled on one Shanghai day (`YYYY-MM-DD`): the 圈存日对账 file. */
  settlement(day: string): Promise<CardCentreLoad[]>;
}

/** One load as the centre recorded it: the card's transaction sequence and TAC prove it happened. */
export interface CardCentreLoad {
  /** The centre's own number for the load. */
  centreTxnNo: string;
  cardNo: string;
  orderNo: string;
  txnSeq: string;
  tac: string;
  /** Fen. */
  amount: number;
  befBal: number;
  aftBal: number;
  loadedAt: Date;
  /** The Shanghai day it settles on. */
  settleDay: string;
}

/** The centre's card check, answered from our own card table (bus_cards). */
export async function ownCardCheck(db: Db, cardNo: string): ReturnType<CardCentre['check']> {
  const [c] = await db.select({ state: t.busCards.state, category: t.busCards.category }).from(t.busCards).where(eq(t.busCards.cardNo, cardNo));
  return c ? { exists: true, state: c.state, category: c.category } : { exists: false, state: null, category: null };
}

/**
 * The card check alone (亲情卡 needs no loads): a centre whose load records are empty. NFC充值 plugs
 * the full built-in centre (modules/recharge/card-ledger.ts), which reads its card ledger.
 */
export const ownCardTable = (db: Db): CardCentre => ({
  check: (cardNo) => ownCardCheck(db, cardNo),
  loadOf: async () => null,
  settlement: async () => [],
});
