import { sql } from 'drizzle-orm';
import { shanghaiDate } from '../../../shared/domain/time';
import type { AppDeps } from '../../context';
import { audit } from '../../lib/audit';
import { SYSTEM_ACTOR } from './service';

/** The timed reminder's horizon: cards whose check runs out within this many days are told once. */
export const REMIND_DAYS = 30;

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** Tens of card numbers in an audit row, not thousands: the rest counted. */
const someCards = (cards: string[]) => (cards.length > 5 ? `${cards.slice(0, 5).join('、')} 等 ${cards.length} 张` : cards.join('、'));

/**
 * A card's current approval: the newest approval of the card, none later. An approval a newer one
 * has replaced is history, whatever its dates.
 */
const CURRENT = sql.raw(`not exists (select 1 from card_verify_applications n where n.card_id = a.card_id and n.id <> a.id and n.status = 1 and n.valid_until > a.valid_until)`);

/**
 * verify.suspend (second wave §4): a card whose current approval ran out more than the
 * configuration's graceDays ago, where the configuration says suspendOnMiss, has its concession
 * suspended: the approval row is marked (the card stays in use, state 1) until a newer approval.
 * Each row once across instances (`for update skip locked`); one audit row per district and run.
 */
export async function suspendMissed(deps: Pick<AppDeps, 'db' | 'clock'>, batch = 1_000): Promise<number> {
  const now = deps.clock.now();
  const today = shanghaiDate(now);
  return deps.db.transaction(async (tx) => {
    const rows = rowsOf<{ id: number; district_id: number; card_no: string }>(
      await tx.execute(sql`select a.id, a.district_id, a.card_no from card_verify_applications a
        join card_verify_configs c on c.district_id = a.district_id and c.category = a.card_category
        where a.status = 1 and a.suspended_at is null and c.enabled and c.suspend_on_miss
          and a.valid_until + c.grace_days < ${today}::date and ${CURRENT}
        order by a.id limit ${batch} for update of a skip locked`),
    );
    if (!rows.length) return 0;
    const ids = rows.map((r) => r.id);
    await tx.execute(sql`update card_verify_applications set suspended_at = ${now}, updated_at = ${now}, row_version = row_version + 1 where id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
    const byDistrict = new Map<number, string[]>();
    for (const r of rows) byDistrict.set(r.district_id, [...(byDistrict.get(r.district_id) ?? []), r.card_no]);
    for (const [districtId, cards] of byDistrict)
      await audit(
        tx,
        SYSTEM_ACTOR,
        { type: 'CARD_VERIFY_SUSPEND', targetDistrictId: districtId, target: 'card-verify/suspend', summary: `逾期未验卡（有效期满且超过宽限期），暂停优惠：${someCards(cards)}`, after: { cards: cards.length } },
        now,
      );
    return rows.length;
  });
}

/**
 * verify.dueRemind (second wave §1's jobs): each card whose current approval runs out within
 * REMIND_DAYS, in an enabled configuration, with no application waiting, is told once per due date
 * (the reminders' unique key keeps a second instance or a second run, and the radar's manual
 * reminder, from telling it again). One audit row per district and run that told anyone.
 */
export async function remindDue(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const today = shanghaiDate(now);
  const until = shanghaiDate(new Date(now.getTime() + REMIND_DAYS * 86_400_000));
  return deps.db.transaction(async (tx) => {
    const sent = rowsOf<{ district_id: number; card_no: string }>(
      await tx.execute(sql`insert into card_verify_reminders (card_no, district_id, valid_until, sent_by, sent_at)
        select a.card_no, a.district_id, a.valid_until, null, ${now} from card_verify_applications a
        join card_verify_configs c on c.district_id = a.district_id and c.category = a.card_category
        where a.status = 1 and c.enabled and a.valid_until between ${today}::date and ${until}::date and ${CURRENT}
          and not exists (select 1 from card_verify_applications w where w.card_id = a.card_id and w.status = 0)
        on conflict do nothing
        returning district_id, card_no`),
    );
    const byDistrict = new Map<number, string[]>();
    for (const r of sent) byDistrict.set(r.district_id, [...(byDistrict.get(r.district_id) ?? []), r.card_no]);
    for (const [districtId, cards] of byDistrict)
      await audit(
        tx,
        SYSTEM_ACTOR,
        { type: 'CARD_VERIFY_REMIND', targetDistrictId: districtId, target: 'card-verify/remind', summary: `自动发送验卡到期提醒（${REMIND_DAYS}天内到期）：${someCards(cards)}`, after: { sent: cards.length } },
        now,
      );
    return sent.length;
  });
}
