import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { MATERIAL_KINDS, PRESET_REASONS, type VerifyCategory } from '../../../shared/api/card-verify';
import { shanghaiDate } from '../../../shared/domain/time';
import { bulkInsert, continueIds } from '../../db/seed/bulk';
import { DAY_MS, type SeedContext, type SeedGenerator } from '../../db/seed/context';
import * as t from '../../db/schema';
import { citizenId } from '../rider/seed-plan';
import { placeholderImage } from '../../lib/sealed-files';
import { addMonths, ageOn, computeChecks, defaultConfig } from './rules';
import { cardVerifyConfigs } from './schema';

/**
 * 线上验卡's demo (second wave §4, §13): the configuration of both categories in every district and
 * the applications of 12 months on the riders' real student and senior cards (8,000 in the demo, a
 * handful in the small profile): 70 % 通过, 12 % 驳回, 10 % 撤销, 8 % 待审核 (≈120 in the last week),
 * 5 % failing the face match. The applicant is the card's holder (their sealed name, id and phone,
 * copied as sealed) but for a few whose id differs (holder mismatch). Materials are generated
 * placeholders; those of applications decided over 30 days ago are already purged (hash kept).
 *
 * Made here rather than as a SeedPlan on the worker: each row copies a real holder's sealed identity
 * and checks the real card, which only the database knows; 8,000 rows of VALUES load in well under
 * a second.
 */

const APP_COLUMNS = ['id', 'apply_no', 'district_id', 'rider_id', 'card_id', 'card_no', 'card_category', 'name_enc', 'id_enc', 'id_idx', 'phone_enc', 'birth_date', 'guardian_consent', 'school', 'grade', 'face_score', 'face_result', 'ocr_result', 'checks', 'auto_pass', 'status', 'reason', 'note', 'reviewer_id', 'reviewed_at', 'revoked_by', 'revoked_at', 'revoke_reason', 'withdrawn_at', 'valid_until', 'cycle_year', 'purged_at', 'created_at', 'updated_at'] as const;
const SCHOOLS = ['徐汇中学', '上海中学', '南洋模范中学', '位育中学', '复旦大学', '上海交通大学', '华东理工大学', '上海师范大学', '田林第三小学', '建襄小学'];
const pad = (n: number, w: number) => String(n).padStart(w, '0');

interface Candidate {
  card_id: number;
  card_no: string;
  district_id: number;
  category: number;
  state: number;
  rider_id: number;
  citizen_enc: string;
  citizen_idx: string;
  name_enc: string;
  phone_enc: string;
}

/** The placeholder of each material (the same picture for every applicant: no faces), with its hash. */
const images = new Map<string, ReturnType<typeof placeholderImage> & { sha256: string }>();
function image(label: string) {
  let img = images.get(label);
  if (!img) {
    const k = MATERIAL_KINDS.indexOf(label as (typeof MATERIAL_KINDS)[number]);
    const made = placeholderImage(`${label}（示例）`, label === '人脸照片' ? 240 : 428, label === '人脸照片' ? 320 : 270, ['#dbeafe', '#fef3c7', '#dcfce7', '#fce7f3', '#e0e7ff'][Math.max(0, k) % 5]);
    img = { ...made, sha256: createHash('sha256').update(made.data).digest('hex') };
    images.set(label, img);
  }
  return img;
}

const rowsOf = async <T>(q: Promise<unknown>): Promise<T[]> => ((await q) as { rows: T[] }).rows;

async function seedVerify(ctx: SeedContext): Promise<void> {
  const { db, rng, now, profile, pii } = ctx;
  const demo = profile.name === 'demo';
  const districts = await rowsOf<{ id: number }>(db.execute(sql`select id from districts order by sort, id`));
  const [admin] = await rowsOf<{ id: number }>(db.execute(sql`select id from users where login = 'admin'`));
  await db.insert(cardVerifyConfigs).values(
    districts.flatMap((d) =>
      ([4, 5] as const).map((category) => ({ districtId: d.id, category, ...defaultConfig(category), updatedBy: admin?.id ?? null, createdAt: new Date(now.getTime() - 400 * DAY_MS), updatedAt: new Date(now.getTime() - 400 * DAY_MS) })),
    ),
  );
  const configs = new Map((await db.select().from(cardVerifyConfigs)).map((c) => [`${c.districtId}|${c.category}`, c]));

  const total = demo ? 8_000 : 8;
  // Mostly cards in use; a few in other states, whose checks then fail. Each read walks the cards in
  // id order and stops at its count (no sort of the city's cards).
  const pick = (states: string, limit: number) =>
    rowsOf<Candidate>(
      db.execute(sql`select c.id as card_id, c.card_no, c.district_id, c.category, c.state, c.rider_id, r.citizen_enc, r.citizen_idx, r.name_enc, r.phone_enc
        from bus_cards c join riders r on r.id = c.rider_id
        where c.category in (4, 5) and c.state in (${sql.raw(states)}) and r.citizen_enc is not null and r.name_enc is not null
        order by c.id limit ${limit}`),
    );
  const usable = await pick('1', total);
  const odd = demo ? await pick('2, 3', 200) : [];
  const reviewers = (await rowsOf<{ id: number }>(db.execute(sql`select u.id from users u join role_groups g on g.id = u.group_id where g.name in ('客服坐席组', '区域管理员组') and u.activated order by u.id`))).map((r) => r.id);
  if (!usable.length || !reviewers.length) return;

  const apps: (string | number | boolean | Date | null)[][] = [];
  const files: (typeof t.sealedFiles.$inferInsert)[] = [];
  const purgeBefore = now.getTime() - 30 * DAY_MS;
  // The small profile: one of each outcome, the first three pending in the manager's district.
  const SMALL: ('pending' | 'pendingFace' | 'pendingHolder' | 'approved' | 'rejected' | 'withdrawn' | 'revoked' | 'approvedOld')[] = ['pending', 'pendingFace', 'pendingHolder', 'approved', 'rejected', 'withdrawn', 'revoked', 'approvedOld'];
  for (let i = 0; i < total; i++) {
    const roll = rng.next();
    const kind = demo ? (roll < 0.7 ? 'approved' : roll < 0.82 ? 'rejected' : roll < 0.92 ? 'withdrawn' : 'pending') : SMALL[i % SMALL.length]!;
    const card = !demo || rng.next() > 0.02 || !odd.length ? usable[i % usable.length]! : odd[i % odd.length]!;
    if (!demo && i >= usable.length) break;
    const category = card.category as VerifyCategory;
    const config = configs.get(`${card.district_id}|${category}`) ?? { ...defaultConfig(category) };
    // When: over 12 months; ≈120 of the pending in the last week, the rest a backlog of up to 45 days.
    const pendingLike = kind === 'pending' || kind === 'pendingFace' || kind === 'pendingHolder';
    const ageMs = pendingLike ? (demo && rng.next() < 0.81 ? rng.int(7 * 24 * 60, 45 * 24 * 60) : rng.int(60, 7 * 24 * 60)) * 60_000 : kind === 'approvedOld' ? 330 * DAY_MS : rng.int(1, 365 * 24 * 60) * 60_000;
    const created = new Date(now.getTime() - (demo ? ageMs : kind === 'approvedOld' ? ageMs : (i + 1) * 3_600_000 + (pendingLike ? 0 : 5 * DAY_MS)));
    const mismatch = kind === 'pendingHolder' || (demo && rng.next() < 0.03);
    const faceFail = kind === 'pendingFace' || (demo && rng.next() < 0.05);
    let idNo = pii.decrypt(card.citizen_enc);
    let idEnc = card.citizen_enc;
    let idIdx = card.citizen_idx;
    if (mismatch) {
      idNo = citizenId(rng, Number(idNo.slice(6, 10)));
      idEnc = pii.encrypt(idNo);
      idIdx = pii.index('citizen', idNo);
    }
    const faceScore = faceFail ? rng.int(40, config.faceThreshold - 1) : rng.int(config.faceThreshold, 99);
    const { checks, birthDate, autoPass } = computeChecks({ idNo, category, cardState: card.state, holderIdx: card.citizen_idx, idIdx, faceScore, config, now: created });
    // A decision a few minutes to two days after the submission; an approval only on passing checks (face aside, with a note).
    let status = kind === 'approved' || kind === 'approvedOld' ? 1 : kind === 'rejected' || kind === 'revoked' ? 2 : kind === 'withdrawn' ? 3 : 0;
    const passable = checks.idChecksum && checks.age && checks.cardState && checks.holderMatch;
    if (status === 1 && !passable) status = 2;
    const decided = status === 0 ? null : new Date(Math.min(now.getTime() - 60_000, created.getTime() + rng.int(5, 48 * 60) * 60_000));
    const reviewerId = status === 1 || status === 2 ? rng.pick(reviewers) : null;
    const revoked = kind === 'revoked' || (demo && status === 2 && rng.next() < 0.04);
    const note = status === 1 && !checks.face ? '已电话联系本人核实，照片光线不足导致比对分偏低' : null;
    const reason = status === 2 ? (revoked ? '撤销通过：复核发现在读证明已过期' : !checks.holderMatch ? PRESET_REASONS[4] : !checks.cardState ? PRESET_REASONS[5] : !checks.face ? PRESET_REASONS[1] : rng.pick(PRESET_REASONS)) : null;
    const validUntil = status === 1 || revoked ? addMonths(shanghaiDate(decided!), config.validMonths) : null;
    const id = i + 1;
    const purged = decided && decided.getTime() < purgeBefore ? decided : null;
    const purgedAt = purged ? new Date(purged.getTime() + 30 * DAY_MS + 3_600_000) : null;
    apps.push([
      id,
      `YZ${shanghaiDate(created).replaceAll('-', '')}${pad(id % 1_000_000, 6)}`,
      card.district_id,
      card.rider_id,
      card.card_id,
      card.card_no,
      category,
      card.name_enc,
      idEnc,
      idIdx,
      card.phone_enc,
      birthDate,
      // Under 14 the rider's guardian agreed in the mini-program (the submission requires it).
      (ageOn(birthDate, shanghaiDate(created)) ?? 99) < 14,
      category === 4 ? rng.pick(SCHOOLS) : null,
      category === 4 ? `${rng.int(1, 6)}年级` : null,
      faceScore,
      checks.face ? 1 : 0,
      checks.idChecksum ? 1 : 0,
      JSON.stringify(checks),
      autoPass,
      status,
      reason,
      note,
      reviewerId,
      decided && status !== 3 ? decided : null,
      revoked ? rng.pick(reviewers) : null,
      revoked ? new Date(Math.min(now.getTime() - 30_000, decided!.getTime() + rng.int(1, 20) * DAY_MS)) : null,
      revoked ? '复核发现在读证明已过期' : null,
      status === 3 ? decided : null,
      status === 1 ? validUntil : revoked ? validUntil : null,
      Number(shanghaiDate(created).slice(0, 4)),
      purgedAt && purgedAt.getTime() < now.getTime() ? purgedAt : null,
      created,
      decided ?? created,
    ]);
    // The materials, sealed, of those still within 30 days of the decision (the purged ones' rows,
    // their hashes alone, are written below in one statement).
    const gone = purgedAt && purgedAt.getTime() < now.getTime();
    if (!gone)
      config.materials.forEach((label) => {
        const img = image(label);
        files.push({ kind: 'verify', refId: id, label, mime: img.mime, bytes: img.data.length, width: img.width, height: img.height, sha256: img.sha256, data: pii.sealBytes(img.data), createdAt: created, purgedAt: null });
      });
  }
  // A revoked approval keeps no validity: the column is the approval's only while it stands.
  for (const a of apps) if (a[20] === 2) a[29] = null;
  await bulkInsert(db, 'card_verify_applications', APP_COLUMNS, apps);
  // sealed_files through drizzle (bytea, and a column name bulkInsert's identifiers do not take), 1,000 a statement.
  for (let i = 0; i < files.length; i += 1_000) await db.insert(t.sealedFiles).values(files.slice(i, i + 1_000));
  // The purged: each material's row with its hash and no bytes, made by the database from the applications.
  const kinds = MATERIAL_KINDS.map((label) => {
    const img = image(label);
    return sql`(${label}::text, ${img.mime}::text, ${img.data.length}::int, ${img.width}::int, ${img.height}::int, ${img.sha256}::text)`;
  });
  await db.execute(sql`insert into sealed_files (kind, ref_id, label, mime, bytes, width, height, sha256, data, created_at, purged_at)
    select 'verify', a.id, m.label, m.mime, m.bytes, m.width, m.height, m.sha, null, a.created_at, a.purged_at
    from card_verify_applications a
    join card_verify_configs c on c.district_id = a.district_id and c.category = a.card_category
    join (values ${sql.join(kinds, sql`, `)}) as m(label, mime, bytes, width, height, sha) on c.materials @> jsonb_build_array(m.label)
    where a.purged_at is not null`);
  await continueIds(db, 'card_verify_applications');
}

export const cardVerifyDemoSeed: SeedGenerator[] = [{ name: 'card-verify', run: seedVerify }];
