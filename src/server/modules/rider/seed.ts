import { asc } from 'drizzle-orm';
import { planned } from '../../db/seed/ahead';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import { demoDistricts } from '../../db/seed/city';
import * as t from '../../db/schema';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';
import { CARD_COLUMNS, RIDER_COLUMNS, ridersAndCardsPlan } from './seed-plan';

async function seedRidersAndCards(ctx: SeedContext) {
  const { db, profile } = ctx;
  // The plan's districts are the seed's (db/seed/city.ts); a mismatch would scatter riders over wrong ids.
  const ids = (await db.select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.id))).map((d) => d.id);
  const expected = demoDistricts(profile.districts).map((d) => d.id);
  if (ids.join() !== expected.join()) throw new Error(`riders are planned for districts ${expected.join(',')}, the database has ${ids.join(',')}`);
  const { riders, cards } = await planned(ridersAndCardsPlan, ctx);
  await bulkInsert(db, 'riders', RIDER_COLUMNS, riders);
  await continueIds(db, 'riders');
  await bulkInsert(db, 'bus_cards', CARD_COLUMNS, cards);
}

export const riderDemoSeed: SeedGenerator[] = [{ name: 'riders-and-cards', run: seedRidersAndCards }];
