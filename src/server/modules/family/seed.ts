import { and, asc, eq, inArray } from 'drizzle-orm';
import { bulkInsert } from '../../db/seed/bulk';
import * as t from '../../db/schema';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';

const RELATIONS = ['父亲', '母亲', '祖父', '祖母', '外祖父', '外祖母', '儿子', '女儿'];

/**
 * 亲情卡 bindings: a verified rider binds a relative's senior or student card in use, in the card's
 * district; some unbound, most renewed once or more. Riders and cards are read from the rider
 * module's tables, seeded before this (`dependsOn`).
 */
async function seedBindings({ db, rng, now, profile }: SeedContext): Promise<void> {
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000);
  const bindingCount = profile.name === 'demo' ? 5_000 : 40;
  const holders = await db.select({ id: t.riders.id, districtId: t.riders.districtId }).from(t.riders).where(eq(t.riders.realName, 1)).orderBy(asc(t.riders.id));
  const relativeCards = await db
    .select({ id: t.busCards.id, riderId: t.busCards.riderId, districtId: t.busCards.districtId })
    .from(t.busCards)
    .where(and(inArray(t.busCards.category, [4, 5]), eq(t.busCards.state, 1)))
    .orderBy(asc(t.busCards.id));
  // The last 200 verified riders of each district are its candidate holders.
  const holdersIn = new Map<number, typeof holders>();
  for (const h of holders) holdersIn.set(h.districtId, [...(holdersIn.get(h.districtId) ?? []).slice(-200), h]);
  const bindings: (string | number | Date | null)[][] = [];
  const used = new Set<number>();
  for (let i = 0; i < bindingCount && used.size < relativeCards.length; i++) {
    const c = rng.pick(relativeCards);
    if (used.has(c.id)) continue;
    used.add(c.id);
    // A citizen of the card's district binds it (never the card's own holder).
    const local = (holdersIn.get(c.districtId) ?? []).filter((h) => h.id !== c.riderId);
    if (!local.length) continue;
    const holder = rng.pick(local);
    const bound = at(rng.int(30, 700));
    const live = rng.next() < 0.9;
    bindings.push([holder.id, c.id, c.districtId, rng.pick(RELATIONS), live ? 1 : 0, bound, new Date(bound.getTime() + rng.int(180, 900) * 86_400_000), live ? null : at(rng.int(1, 29))]);
  }
  await bulkInsert(db, 'family_bindings', ['holder_id', 'card_id', 'district_id', 'relation', 'status', 'bound_at', 'expires_at', 'unbound_at'], bindings);
  const saved = await db.select({ id: t.familyBindings.id, districtId: t.familyBindings.districtId, boundAt: t.familyBindings.boundAt }).from(t.familyBindings).orderBy(asc(t.familyBindings.id));
  const renewals = saved.flatMap((b) =>
    Array.from({ length: rng.int(0, 3) }, (_, k) => [b.id, b.districtId, rng.pick([6, 12]), rng.pick([0, 1_000, 2_000]), new Date(b.boundAt.getTime() + (k + 1) * 150 * 86_400_000)]).filter((r) => (r[4] as Date) < now),
  );
  await bulkInsert(db, 'family_renewals', ['binding_id', 'district_id', 'months', 'amount', 'renewed_at'], renewals);
}

export const familyDemoSeed: SeedGenerator[] = [{ name: 'family-bindings', run: seedBindings }];
