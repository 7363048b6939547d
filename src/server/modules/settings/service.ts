import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { system } from '../../../shared/api';
import type { AppDeps, AuthContext } from '../../context';
import * as t from '../../db/schema';
import { audit } from '../../lib/audit';
import { fail, failOn, notFound, uniqueOr } from '../../lib/errors';
import { listService } from '../../lib/list';
import { assertInScope, inScope } from '../../lib/scope';
import { contains, iso } from '../../lib/sql';
import { checkVersion, nextVersion } from '../../lib/row-version';

type DistrictQuery = z.output<typeof system.districtPage.query>;

/** 区域管理 and the area selector: the districts by name, in their own order. */
const districtList = listService({
  endpoint: system.districtPage,
  select: (db) => db.select({ id: t.districts.id, name: t.districts.name, code: t.districts.code, lat: t.districts.lat, lon: t.districts.lon }).from(t.districts),
  count: (db) => db.select({ n: count() }).from(t.districts),
  // Without openDistrict the area list is the account's own district, whatever district is chosen.
  scope: (a: AuthContext) => (a.user.openDistrict ? undefined : eq(t.districts.id, a.user.districtId ?? -1)),
  filters: { name: (name) => contains(t.districts.name, name) },
  sorts: { name: t.districts.name, code: t.districts.code },
  order: { column: t.districts.sort, dir: 'asc' },
  key: { column: t.districts.id, of: (d) => d.id },
  dto: (d) => d,
});

export const pageDistricts = (deps: AppDeps, a: AuthContext, q: DistrictQuery) => districtList.page(deps, a, q);

const agreementDto = (r: typeof t.agreements.$inferSelect) => ({
  id: r.id,
  districtId: r.districtId,
  code: r.code,
  title: r.title,
  content: r.content,
  updatedDate: iso(r.updatedAt),
  rowVersion: r.rowVersion,
});

export async function listAgreements(deps: AppDeps, a: AuthContext, code: string | undefined) {
  const rows = await deps.db
    .select()
    .from(t.agreements)
    .where(and(inScope(a, t.agreements.districtId), code ? eq(t.agreements.code, code) : undefined))
    .orderBy(asc(t.agreements.districtId), asc(t.agreements.code));
  return rows.map(agreementDto);
}

type AgreementBody = z.output<typeof system.agreementSave.body>;

const DUPLICATE_CODE = { field: 'code', msg: '该区域已存在相同编码的协议' };

export async function saveAgreement(deps: AppDeps, a: AuthContext, body: AgreementBody) {
  const now = deps.clock.now();
  return uniqueOr(DUPLICATE_CODE, () => deps.db.transaction(async (tx) => {
    if (body.id) {
      const [before] = await tx.select().from(t.agreements).where(eq(t.agreements.id, body.id)).for('update');
      if (!before) throw notFound('协议不存在');
      assertInScope(a, before.districtId);
      await checkVersion(before, body.rowVersion, () => agreementDto(before));
      const [dup] = await tx
        .select({ id: t.agreements.id })
        .from(t.agreements)
        .where(and(eq(t.agreements.districtId, before.districtId), eq(t.agreements.code, body.code)));
      if (dup && dup.id !== before.id) throw failOn(DUPLICATE_CODE.field, DUPLICATE_CODE.msg);
      const [after] = await tx
        .update(t.agreements)
        .set({ code: body.code, title: body.title, content: body.content, updatedAt: now, rowVersion: nextVersion(t.agreements.rowVersion) })
        .where(eq(t.agreements.id, body.id))
        .returning();
      if (!after) throw notFound('协议不存在');
      await audit(tx, a.actor, { type: 'AGREEMENT_SAVE', targetDistrictId: after.districtId, target: `${after.districtId}/${after.code}`, summary: `修改协议「${after.title}」`, before: agreementDto(before), after: agreementDto(after) }, now);
      return agreementDto(after);
    }
    if (a.districtScope === null) throw fail('请先选择区域再新增协议');
    const [created] = await tx
      .insert(t.agreements)
      .values({ districtId: a.districtScope, code: body.code, title: body.title, content: body.content, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!created) throw failOn(DUPLICATE_CODE.field, DUPLICATE_CODE.msg);
    await audit(tx, a.actor, { type: 'AGREEMENT_SAVE', targetDistrictId: created.districtId, target: `${created.districtId}/${created.code}`, summary: `新增协议「${created.title}」`, after: agreementDto(created) }, now);
    return agreementDto(created);
  }));
}

async function configValue(deps: AppDeps, key: string): Promise<unknown> {
  const [row] = await deps.db.select({ value: t.appConfig.value }).from(t.appConfig).where(eq(t.appConfig.key, key));
  return row?.value ?? null;
}

export async function qrCode(deps: AppDeps): Promise<string | null> {
  const v = await configValue(deps, 'qrCode');
  return typeof v === 'string' && v ? v : null;
}

export async function cityLocation(deps: AppDeps) {
  const [row] = await deps.db.select().from(t.appConfig).where(eq(t.appConfig.key, 'cityCenter'));
  const v = (row?.value ?? null) as { lat?: unknown; lon?: unknown } | null;
  if (!v || typeof v.lat !== 'number' || typeof v.lon !== 'number') throw fail('未配置城市中心坐标');
  return { lat: v.lat, lon: v.lon, tileUrl: deps.config.mapTileUrl, rowVersion: row!.rowVersion };
}

type BaseSettingBody = z.output<typeof system.configSave.body>;

/** In the log an inline image is named by its size: the row stays readable and small. */
const qrForLog = (qr: string | null) => (qr && qr.startsWith('data:') ? `（内嵌图片 ${Math.ceil(qr.length * 0.75 / 1024)} KB）` : qr);

/** Saves the sidebar's QR code and the city centre together, with one audit row of both. */
export async function saveBaseSetting(deps: AppDeps, a: AuthContext, body: BaseSettingBody) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // Locked so two administrators saving at once leave one whole setting, not a mix.
    const rows = await tx.select().from(t.appConfig).where(inArray(t.appConfig.key, ['qrCode', 'cityCenter'])).for('update');
    const value = (key: string) => rows.find((r) => r.key === key)?.value ?? null;
    const oldQr = value('qrCode');
    const oldCentre = value('cityCenter') as { lat?: number; lon?: number } | null;
    const before = { qrCode: qrForLog(typeof oldQr === 'string' ? oldQr : null), lat: oldCentre?.lat ?? null, lon: oldCentre?.lon ?? null };
    // 基础设置's version is the city centre row's: the two are saved together, and both move on.
    const version = rows.find((r) => r.key === 'cityCenter')?.rowVersion ?? 0;
    await checkVersion({ rowVersion: version }, body.rowVersion, () => ({ qrCode: typeof oldQr === 'string' ? oldQr : null, lat: oldCentre?.lat ?? null, lon: oldCentre?.lon ?? null, rowVersion: version }));
    const upsert = (key: string, v: unknown) =>
      tx.insert(t.appConfig).values({ key, value: v }).onConflictDoUpdate({ target: t.appConfig.key, set: { value: v, rowVersion: nextVersion(t.appConfig.rowVersion) } });
    await upsert('qrCode', body.qrCode);
    await upsert('cityCenter', { lat: body.lat, lon: body.lon });
    const after = { qrCode: qrForLog(body.qrCode), lat: body.lat, lon: body.lon };
    await audit(tx, a.actor, { type: 'CONFIG_SAVE', targetDistrictId: null, target: 'base-setting', summary: '保存基础设置（侧边栏二维码、城市中心坐标）', before, after }, now);
    const [centre] = await tx.select({ v: t.appConfig.rowVersion }).from(t.appConfig).where(eq(t.appConfig.key, 'cityCenter'));
    return { qrCode: body.qrCode, lat: body.lat, lon: body.lon, rowVersion: centre?.v ?? 1 };
  });
}

export async function listPayInfo(deps: AppDeps) {
  return deps.db
    .select({ id: t.payInfo.id, code: t.payInfo.code, name: t.payInfo.name, enabled: t.payInfo.enabled })
    .from(t.payInfo)
    .orderBy(asc(t.payInfo.sort));
}
