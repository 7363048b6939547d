import { createHash } from 'node:crypto';
import { eq, isNull, sql } from 'drizzle-orm';
import { MATERIALS } from '../../../shared/api/handle-card';
import { planned } from '../../db/seed/ahead';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import { demoDistricts } from '../../db/seed/city';
import type { SeedContext, SeedGenerator } from '../../db/seed/context';
import * as t from '../../db/schema';
import { placeholderImage, storeSealedFiles } from '../../lib/sealed-files';
import { APPLICATION_COLUMNS, CATEGORIES, POOL_COLUMNS, REFUND_COLUMNS, SETTING_TEMPLATES, handleCardPlan, ruleTextOf, volumes } from './seed-plan';
import { handleCardApplications as apps, handleCardSettings } from './schema';

/**
 * 线上办卡: the settings (4 categories × every district), then the plan's applications, pool and
 * refunds (seed-plan.ts), the reviewer of the decided ones (the agent, whose desk reviews them), and
 * the applicants' images: generated placeholders, sealed, for the applications still in hand; the
 * hashes alone (purged) for those final more than 30 days.
 */
async function seedHandleCard(ctx: SeedContext): Promise<void> {
  const { db, now, profile, pii } = ctx;
  const v = volumes(profile.name === 'demo');
  const [riders] = await db.select({ n: sql<number>`count(*)::int` }).from(t.riders);
  if ((riders?.n ?? 0) < v.riders) throw new Error(`handle-card applications are planned for riders 1–${v.riders}, the database has ${riders?.n ?? 0}`);
  const districts = demoDistricts(profile.districts);
  await db.insert(handleCardSettings).values(
    districts.flatMap((d) =>
      CATEGORIES.map((c) => {
        const tpl = SETTING_TEMPLATES[c]!;
        return { districtId: d.id, cardCategory: c, open: true, ...tpl, onePerId: true, ruleText: ruleTextOf(c, d.name), updatedAt: now };
      }),
    ),
  );
  const bulk = await planned(handleCardPlan, ctx);
  await bulkInsert(db, 'handle_card_applications', APPLICATION_COLUMNS, bulk.applications);
  await bulkInsert(db, 'handle_card_pool', POOL_COLUMNS, bulk.pool);
  await bulkInsert(db, 'money_refunds', REFUND_COLUMNS, bulk.refunds);
  await continueIds(db, 'handle_card_applications');
  await continueIds(db, 'handle_card_pool');
  const [agent] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.login, 'agent'));
  if (agent) await db.update(apps).set({ reviewerId: agent.id }).where(sql`${apps.decidedAt} is not null`);

  // Images: sealed for the applications still in hand, hashes only for the purged.
  const kept = await db.select({ id: apps.id, applyNo: apps.applyNo, category: apps.cardCategory }).from(apps).where(isNull(apps.imagesPurgedAt)).orderBy(apps.id);
  const files = kept.flatMap((a) => [
    { kind: 'handle' as const, refId: a.id, label: MATERIALS.photo, ...placeholderImage(`证件照 ${a.applyNo.slice(-4)}`, 358, 441) },
    { kind: 'handle' as const, refId: a.id, label: MATERIALS.idFront, ...placeholderImage('身份证人像面（示例）', 428, 270, '#fef3c7') },
    { kind: 'handle' as const, refId: a.id, label: MATERIALS.idBack, ...placeholderImage('身份证国徽面（示例）', 428, 270, '#fee2e2') },
    ...(a.category === 4 ? [{ kind: 'handle' as const, refId: a.id, label: MATERIALS.studentCard, ...placeholderImage('学生证（示例）', 400, 300, '#dcfce7') }] : []),
  ]);
  for (let i = 0; i < files.length; i += 1_000) await storeSealedFiles(db, pii, files.slice(i, i + 1_000), now);
  const purged = await db.select({ id: apps.id, at: apps.imagesPurgedAt, created: apps.createdAt }).from(apps).where(sql`${apps.imagesPurgedAt} is not null`).orderBy(apps.id);
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  const rows = purged.flatMap((a) =>
    [MATERIALS.photo, MATERIALS.idFront, MATERIALS.idBack].map((label) => ({ kind: 'handle', refId: a.id, label, mime: 'image/jpeg', bytes: 40_000, width: null, height: null, sha256: hash(`${a.id}:${label}`), data: null, createdAt: a.created, purgedAt: a.at })),
  );
  for (let i = 0; i < rows.length; i += 2_000) await db.insert(t.sealedFiles).values(rows.slice(i, i + 2_000));
}

export const handleCardSeed: SeedGenerator[] = [{ name: 'handle-card', run: seedHandleCard }];
