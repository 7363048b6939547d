import { and, asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/shared/api/custom-bus/demand';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import * as cb from '../../src/server/modules/custom-bus/schema';
import { SNAP_M, cellCentre, cellOf, distanceM } from '../../src/shared/custom/demand-grid';
import { type CustomFixture, fixtureClass, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { exportThroughTask } from '../support/export-task';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/**
 * 定制列表 and 定制记录 against the real server: the seeded demand, the lists with their summaries and
 * exports (phones masked, points only as 500 m cells), 处理 with every refusal, the heat map's
 * clusters and ★ 需求成线 (a draft line, its stops and first week of classes and the demand's link in
 * one transaction, or nothing).
 */
let s: TestServer;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;
const pii = createPii(TEST_PII_KEY);
const db = () => s.database.db;
const f = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
const CJK = /[\u4e00-\u9fff]/;

beforeAll(async () => {
  s = await startTestServer();
  [manager, viewer, agent] = (await Promise.all(['manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string];
  const districts = await db().select().from(t.districts);
  xuhui = districts.find((d) => d.name === '徐汇区')!.id;
  huangpu = districts.find((d) => d.name === '黄浦区')!.id;
});
afterAll(() => s.close());

const audits = (type: string, target: string) =>
  db()
    .select()
    .from(t.sysLog)
    .where(and(eq(t.sysLog.operationType, type), eq(t.sysLog.target, target)));
const stored = async (id: number) => (await db().select().from(cb.customDemands).where(eq(cb.customDemands.id, id)))[0]!;
const counts = async () => {
  const n = async (table: typeof cb.customLines | typeof cb.customClasses | typeof cb.customLineStops | typeof cb.customStations | typeof cb.customDemands | typeof t.sysLog) => (await db().select({ n: count() }).from(table))[0]!.n;
  return { lines: await n(cb.customLines), classes: await n(cb.customClasses), stops: await n(cb.customLineStops), stations: await n(cb.customStations), logs: await n(t.sysLog) };
};

/** Two enabled stops of a district some way apart: a demand's ends that snap. */
async function twoStops(districtId: number) {
  const stops = await db().select().from(t.stations).where(and(eq(t.stations.districtId, districtId), eq(t.stations.state, 1))).orderBy(asc(t.stations.id));
  const a = stops[0]!;
  const b = stops.filter((x) => distanceM(a, x) > 2500).at(-1) ?? stops.at(-1)!;
  return [a, b] as const;
}

/** A demand of the test's own between two stops of the district (or given points). */
async function demand(districtId: number, over: Partial<typeof cb.customDemands.$inferInsert> = {}) {
  const [a, b] = await twoStops(districtId);
  const now = s.clock.now();
  const [row] = await db()
    .insert(cb.customDemands)
    .values({ districtId, fromName: '测试小区', fromLng: a.lng, fromLat: a.lat, toName: '测试园区', toLng: b.lng, toLat: b.lat, goFrom: 7 * 3600, goTo: 8 * 3600, distanceM: distanceM(a, b), supporters: 40, threshold: 30, createdAt: now, updatedAt: now, ...over })
    .returning();
  return row!;
}

/** Submissions of the district's riders at these points (sealed as the mini-program leaves them). */
async function records(districtId: number, n: number, home: { lng: number; lat: number }, work: { lng: number; lat: number }, goTime: number, demandId: number | null = null) {
  const riders = await db().select({ id: t.riders.id }).from(t.riders).where(eq(t.riders.districtId, districtId)).orderBy(asc(t.riders.id)).limit(n);
  const now = s.clock.now();
  return db()
    .insert(cb.customDemandRecords)
    .values(
      riders.map((r, i) => ({
        districtId,
        demandId,
        riderId: r.id,
        homeName: '测试小区',
        homeEnc: pii.encrypt(`${home.lng},${home.lat}`),
        homeCell: cellOf(home.lng, home.lat),
        workName: '测试园区',
        workEnc: pii.encrypt(`${work.lng},${work.lat}`),
        workCell: cellOf(work.lng, work.lat),
        goTime: goTime + i * 60,
        status: demandId ? 1 : 0,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
}

describe('the seeded demand (second wave §5, §13)', () => {
  it('demands and submissions around the parks; supporters count the matched submissions; points sealed, cells in the clear', async () => {
    const demands = await db().select().from(cb.customDemands);
    expect(demands.length).toBeGreaterThanOrEqual(20);
    const recs = await db().select().from(cb.customDemandRecords);
    expect(recs.length).toBeGreaterThanOrEqual(400);
    const per = new Map<number, number>();
    for (const r of recs) if (r.demandId) per.set(r.demandId, (per.get(r.demandId) ?? 0) + 1);
    for (const d of demands.filter((x) => x.fromName !== '测试小区')) expect(d.supporters).toBe(per.get(d.id) ?? 0);
    expect(new Set(demands.map((d) => d.state)).has(2)).toBe(true);
    // Linked only where the network part seeded lines, and then to a line of the district.
    for (const d of demands.filter((x) => x.state === 1)) {
      const [l] = await db().select().from(cb.customLines).where(eq(cb.customLines.id, d.lineId!));
      expect(l!.districtId).toBe(d.districtId);
    }
    const r = recs[0]!;
    const [lng, lat] = pii.decrypt(r.homeEnc).split(',').map(Number) as [number, number];
    expect(cellOf(lng, lat)).toBe(r.homeCell);
    expect(r.homeEnc).not.toContain(String(lng));
  });
});

describe('定制列表: list, summary, detail, export', () => {
  it('the manager reads the district’s demands only; the viewer is refused; the agent (客服坐席组 reads 定制公交) reads but never handles', async () => {
    const mine = (await s.call(api.customDemandPage, { token: manager, query: { size: 1000 } })).body.data;
    expect(mine.content.length).toBeGreaterThan(0);
    expect(mine.content.every((d) => d.districtId === xuhui)).toBe(true);
    // Most supported first.
    const sup = mine.content.map((d) => d.supporters);
    expect(sup).toEqual([...sup].sort((a, b) => b - a));
    for (const e of [api.customDemandPage, api.customDemandTotal, api.customDemandExport, api.customDemandRecordPage, api.customDemandRecordTotal, api.customDemandRecordExport, api.customDemandHeat]) {
      expect((await s.call(e, { token: viewer })).status, e.id).toBe(403);
    }
    const agentSees = (await s.call(api.customDemandPage, { token: agent, query: { size: 1000 } })).body.data.content;
    expect(agentSees.every((d) => d.districtId === xuhui)).toBe(true);
  });

  it('filters by state, area name and the threshold; the summary counts by state with the other filters', async () => {
    const d = await demand(xuhui, { fromName: '筛选专用小区', supporters: 12 });
    const byName = (await s.call(api.customDemandPage, { token: manager, query: { name: '筛选专用' } })).body.data.content;
    expect(byName.map((x) => x.id)).toEqual([d.id]);
    const below = (await s.call(api.customDemandPage, { token: manager, query: { name: '筛选专用', reached: '1' } })).body.data.totalElements;
    expect(below).toBe(0);
    const open = (await s.call(api.customDemandPage, { token: manager, query: { state: '0', size: 1000 } })).body.data;
    expect(open.content.every((x) => x.state === 0)).toBe(true);
    const total = (await s.call(api.customDemandTotal, { token: manager, query: {} })).body.data;
    const all = (await s.call(api.customDemandPage, { token: manager, query: { size: 1000 } })).body.data;
    expect(total.total).toBe(all.totalElements);
    expect(total.open).toBe(open.totalElements);
    expect(total.open + total.opened + total.declined).toBe(total.total);
    expect(total.supporters).toBe(all.content.reduce((n, x) => n + x.supporters, 0));
  });

  it('the detail counts its riders and ★ how many of them later bought on its line; a foreign one is refused', async () => {
    const { line } = await fixtureLine(f(), xuhui);
    const [a, b] = await twoStops(xuhui);
    const d = await demand(xuhui, { state: 1, lineId: line.id, reply: '已开通' });
    const recs = await records(xuhui, 3, a, b, 7 * 3600 + 900, d.id);
    const c = await fixtureClass(f(), line, 2);
    await fixturePaidOrder(f(), c, { riderId: recs[0]!.riderId, seats: 2 });
    await fixturePaidOrder(f(), c, { riderId: recs[0]!.riderId });
    const got = (await s.call(api.customDemandById, { token: manager, query: { id: d.id } })).body.data;
    expect(got).toMatchObject({ id: d.id, records: 3, riders: 3, buyers: 1, buyerOrders: 2, lineNo: line.lineNo });
    const foreign = await demand(huangpu);
    expect((await s.call(api.customDemandById, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(api.customDemandById, { token: manager, query: { id: 99_999_999 } })).body.code).not.toBe(1);
  });

  it('exports as a download-centre task and logs it', async () => {
    const { sheet } = await exportThroughTask(s, api.customDemandExport, manager, { state: 0 });
    expect(sheet.rows[0]).toEqual(expect.arrayContaining(['起点', '终点', '报名人数', '状态']));
    expect(sheet.rows.length).toBeGreaterThan(1);
    expect(sheet.rows.slice(1).every((r) => r.includes('未开通'))).toBe(true);
  });
});

describe('处理 (customDemand/handle)', () => {
  const handle = (token: string, body: unknown) => s.call(api.customDemandHandle, { token, body });

  it('0 → 2 needs a reply; then 2 → 0 reopens; each with its audit row', async () => {
    const d = await demand(xuhui);
    const none = await handle(manager, { id: d.id, fromState: 0, toState: 2 });
    expect(none.body).toMatchObject({ code: 0, msg: '请填写暂不开通的原因' });
    expect((await stored(d.id)).state).toBe(0);
    const declined = await handle(manager, { id: d.id, fromState: 0, toState: 2, reply: '沿线已有公交直达' });
    expect(declined.body.data).toMatchObject({ state: 2, reply: '沿线已有公交直达', lineId: null });
    const reopened = await handle(manager, { id: d.id, fromState: 2, toState: 0, rowVersion: declined.body.data.rowVersion });
    expect(reopened.body.data.state).toBe(0);
    const logs = await audits('CUSTOM_DEMAND_HANDLE', `custom-demand/${d.id}`);
    expect(logs).toHaveLength(2);
    expect(logs.map((l) => (l.after as { state: number }).state).sort()).toEqual([0, 2]);
  });

  it('0 → 1 needs a line of the same district, and below the threshold an 开通说明', async () => {
    const d = await demand(xuhui, { supporters: 12, threshold: 30 });
    const { line } = await fixtureLine(f(), xuhui);
    const { line: foreignLine } = await fixtureLine(f(), huangpu);
    const noLine = await handle(manager, { id: d.id, fromState: 0, toState: 1, reply: '开通' });
    expect(noLine.body.msg).toBe('请选择开通的线路');
    const foreign = await handle(manager, { id: d.id, fromState: 0, toState: 1, lineId: foreignLine.id, reply: '开通' });
    expect(foreign.body.msg).toBe('开通线路须与需求属于同一区域');
    const below = await handle(manager, { id: d.id, fromState: 0, toState: 1, lineId: line.id });
    expect(below.body.msg).toBe('报名人数未达开通门槛（12/30），请填写开通说明');
    expect(await stored(d.id)).toMatchObject({ state: 0, lineId: null });
    expect(await audits('CUSTOM_DEMAND_HANDLE', `custom-demand/${d.id}`)).toHaveLength(0);
    const opened = await handle(manager, { id: d.id, fromState: 0, toState: 1, lineId: line.id, reply: '先行试点开通' });
    expect(opened.body.data).toMatchObject({ state: 1, lineId: line.id, lineNo: line.lineNo, reply: '先行试点开通' });
    expect(await audits('CUSTOM_DEMAND_HANDLE', `custom-demand/${d.id}`)).toHaveLength(1);
    // 已开通 is final.
    const back = await handle(manager, { id: d.id, fromState: 1, toState: 0 });
    expect(back.body.code).toBe(0);
    expect((await stored(d.id)).state).toBe(1);
  });

  it('at the threshold 开通 needs no reply', async () => {
    const d = await demand(xuhui, { supporters: 30 });
    const { line } = await fixtureLine(f(), xuhui);
    expect((await handle(manager, { id: d.id, fromState: 0, toState: 1, lineId: line.id })).body.data.state).toBe(1);
  });

  it('开通’s choice: the district’s lines, nearest ends first; a foreign demand is refused', async () => {
    const [a, b] = await twoStops(xuhui);
    const d = await demand(xuhui);
    const { line: far } = await fixtureLine(f(), xuhui);
    const { line: near } = await fixtureLine(f(), xuhui);
    await db().update(cb.customStations).set({ lng: a.lng, lat: a.lat }).where(eq(cb.customStations.id, near.startStationId!));
    await db().update(cb.customStations).set({ lng: b.lng, lat: b.lat }).where(eq(cb.customStations.id, near.endStationId!));
    const lines = (await s.call(api.customDemandCandidateLines, { token: manager, query: { id: d.id } })).body.data.lines;
    expect(lines[0]).toMatchObject({ id: near.id, fromM: 0, toM: 0 });
    expect(lines.some((l) => l.id === far.id)).toBe(true);
    const { line: foreignLine } = await fixtureLine(f(), huangpu);
    expect(lines.some((l) => l.id === foreignLine.id)).toBe(false);
    const foreign = await demand(huangpu);
    expect((await s.call(api.customDemandCandidateLines, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(api.customDemandCandidateLines, { token: viewer, query: { id: d.id } })).status).toBe(403);
  });

  it('refuses a state moved under the operator and a stale version; changes nothing', async () => {
    const d = await demand(xuhui);
    const moved = await handle(manager, { id: d.id, fromState: 2, toState: 0 });
    expect(moved.body.code).toBe(0);
    expect(moved.body.msg).toMatch(CJK);
    const stale = await handle(manager, { id: d.id, fromState: 0, toState: 2, reply: '原因', rowVersion: d.rowVersion + 5 });
    expect(stale.body.code).toBe(0);
    expect(await stored(d.id)).toMatchObject({ state: 0, rowVersion: d.rowVersion });
  });

  it('refuses the viewer, the agent, a foreign district and malformed bodies; nothing changed', async () => {
    const d = await demand(xuhui);
    const foreign = await demand(huangpu);
    const before = await counts();
    for (const token of [viewer, agent]) expect((await handle(token, { id: d.id, fromState: 0, toState: 2, reply: '原因' })).status).toBe(403);
    expect((await handle(manager, { id: foreign.id, fromState: 0, toState: 2, reply: '原因' })).status).toBe(403);
    for (const body of [{ id: d.id, fromState: 0, toState: 2, reply: '长'.repeat(201) }, { id: d.id, toState: 2, reply: '原因' }, { id: 'x', fromState: 0, toState: 2 }, { id: d.id, fromState: 0, toState: 9 }, {}]) {
      const res = await handle(manager, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toMatch(CJK);
    }
    expect(await stored(d.id)).toMatchObject({ state: 0, reply: '' });
    expect(await stored(foreign.id)).toMatchObject({ state: 0, reply: '' });
    const after = await counts();
    // Only the refusals' own DENIED rows were logged.
    expect({ ...after, logs: 0 }).toEqual({ ...before, logs: 0 });
    expect(await audits('CUSTOM_DEMAND_HANDLE', `custom-demand/${d.id}`)).toHaveLength(0);
  });
});

describe('定制记录: list, summary, export — phones masked, points coarse', () => {
  it('answers masked phones and the cells’ centres, never the sealed point', async () => {
    const page = (await s.call(api.customDemandRecordPage, { token: manager, query: { size: 200 } })).body.data;
    expect(page.content.length).toBeGreaterThan(0);
    expect(page.content.every((r) => r.districtId === xuhui)).toBe(true);
    const sealed = await db().select().from(cb.customDemandRecords).where(eq(cb.customDemandRecords.districtId, xuhui));
    const byId = new Map(sealed.map((r) => [r.id, r]));
    const phones = new Set((await db().select().from(t.riders)).map((r) => pii.decrypt(r.phoneEnc)));
    for (const r of page.content) {
      expect(r.riderPhone).toMatch(/^1\d{2}\*{4}\d{4}$/);
      expect(phones.has(r.riderPhone!)).toBe(false);
      const row = byId.get(r.id)!;
      const [lng, lat] = pii.decrypt(row.homeEnc).split(',').map(Number) as [number, number];
      expect(r.home).toEqual(cellCentre(row.homeCell));
      // The centre, not the point: within the cell (≤ ~360 m), never the point itself.
      expect(distanceM(r.home!, { lng, lat })).toBeLessThan(400);
      expect(r.home!.lng === lng && r.home!.lat === lat).toBe(false);
      expect(JSON.stringify(r)).not.toContain(row.homeEnc);
    }
  });

  it('filters by demand and status; the summary agrees with the list', async () => {
    const d = await demand(xuhui);
    const [a, b] = await twoStops(xuhui);
    await records(xuhui, 4, a, b, 8 * 3600, d.id);
    const list = (await s.call(api.customDemandRecordPage, { token: manager, query: { demandId: d.id } })).body.data;
    expect(list.totalElements).toBe(4);
    const total = (await s.call(api.customDemandRecordTotal, { token: manager, query: { demandId: d.id } })).body.data;
    expect(total).toEqual({ total: 4, riders: 4, waiting: 0, matched: 4, notified: 0 });
    const waiting = (await s.call(api.customDemandRecordPage, { token: manager, query: { status: '0', size: 1000 } })).body.data.content;
    expect(waiting.every((r) => r.status === 0)).toBe(true);
    expect((await s.call(api.customDemandRecordPage, { token: manager, query: { status: '7' } })).status).toBe(400);
    expect((await s.call(api.customDemandRecordPage, { token: manager, query: { area: 'x'.repeat(21) } })).status).toBe(400);
  });

  it('exports through a task with phones masked and points as cell centres; no phone in clear anywhere', async () => {
    const { sheet, created } = await exportThroughTask(s, api.customDemandRecordExport, manager, {});
    expect(sheet.rows[0]).toEqual(expect.arrayContaining(['手机号', '家庭位置（500米网格中心）']));
    const phones = new Set((await db().select().from(t.riders)).map((r) => pii.decrypt(r.phoneEnc)));
    const text = JSON.stringify(sheet.rows) + JSON.stringify(created);
    for (const p of phones) expect(text.includes(p)).toBe(false);
    const phoneCol = (sheet.rows[0] as string[]).indexOf('手机号');
    expect(sheet.rows.slice(1).every((r) => /^1\d{2}\*{4}\d{4}$/.test(String(r[phoneCol])))).toBe(true);
    // And the audit rows the lists wrote hold none either.
    const logs = JSON.stringify(await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'CUSTOM_EXPORT')));
    for (const p of phones) expect(logs.includes(p)).toBe(false);
  });
});

describe('★ heat clusters', () => {
  it('groups submissions by home cell × work cell × 30-minute window, biggest first, with the median and the stations to snap to', async () => {
    const [a, b] = await twoStops(xuhui);
    // 7 riders 07:30–07:36 from a to b: one cluster of at least 7 (the seed may add to its cells).
    await records(xuhui, 7, a, b, 7 * 3600 + 1800);
    const clusters = (await s.call(api.customDemandHeat, { token: manager, query: { minSupporters: 3, limit: 200 } })).body.data.clusters;
    expect(clusters.length).toBeGreaterThan(0);
    expect(clusters.every((c) => c.districtId === xuhui && c.supporters >= 3)).toBe(true);
    const sup = clusters.map((c) => c.supporters);
    expect(sup).toEqual([...sup].sort((x, y) => y - x));
    const mine = clusters.find((c) => c.homeCell === cellOf(a.lng, a.lat) && c.workCell === cellOf(b.lng, b.lat) && c.window === 7 * 3600 + 1800)!;
    expect(mine.supporters).toBeGreaterThanOrEqual(7);
    expect(mine.medianGoTime).toBeGreaterThanOrEqual(7 * 3600 + 1800);
    expect(mine.medianGoTime).toBeLessThan(8 * 3600);
    expect(mine.home).toEqual(cellCentre(mine.homeCell));
    expect(mine.homeSnap).not.toBeNull();
    expect(mine.homeSnap!.distanceM).toBeLessThanOrEqual(SNAP_M);
    expect(mine.workSnap!.distanceM).toBeLessThanOrEqual(SNAP_M);
    // The seed's clusters snap too (their ends are real stops).
    expect(clusters.filter((c) => c.homeSnap && c.workSnap).length).toBeGreaterThan(0);
    const few = (await s.call(api.customDemandHeat, { token: manager, query: { minSupporters: 1000 } })).body.data.clusters;
    expect(few).toEqual([]);
    expect((await s.call(api.customDemandHeat, { token: manager, query: { minSupporters: 0 } })).status).toBe(400);
  });
});

describe('★ 需求成线 (customDemand/toLine)', () => {
  let n = 0;
  const lineNo = () => `T${Date.now().toString(36).slice(-5)}${n++}`.toUpperCase();
  const toLine = (token: string, body: Record<string, unknown>) => s.call(api.customDemandToLine, { token, body: { name: '需求成线测试', price: 900, ...body } });

  it('from a cluster: a draft line, its two stops (regular stops become 定制站点), the first week’s weekday classes, one audit row', async () => {
    const [a, b] = await twoStops(xuhui);
    await records(xuhui, 6, a, b, 8 * 3600 + 600);
    const cluster = { districtId: xuhui, homeCell: cellOf(a.lng, a.lat), workCell: cellOf(b.lng, b.lat), window: 8 * 3600 };
    const no = lineNo();
    const res = await toLine(manager, { cluster, lineNo: no, seats: 33 });
    expect(res.body.code, res.body.msg).toBe(1);
    const made = res.body.data;
    expect(made.demand).toBeNull();
    const [line] = await db().select().from(cb.customLines).where(eq(cb.customLines.id, made.lineId));
    expect(line).toMatchObject({ districtId: xuhui, lineNo: no, status: 0, direction: 0, defaultSeats: 33, price: 900, departTime: made.departTime });
    expect(made.departTime % 300).toBe(0);
    expect(made.departTime).toBeGreaterThanOrEqual(8 * 3600);
    expect(made.departTime).toBeLessThanOrEqual(8 * 3600 + 1800);
    const stops = await db().select().from(cb.customLineStops).where(eq(cb.customLineStops.lineId, made.lineId)).orderBy(asc(cb.customLineStops.seq));
    expect(stops.map((x) => [x.direction, x.seq, x.offsetMin > 0 || x.seq === 1])).toEqual([
      [0, 1, true],
      [0, 2, true],
    ]);
    const stations = await db().select().from(cb.customStations).where(sql`${cb.customStations.id} in (${stops[0]!.stationId}, ${stops[1]!.stationId})`);
    for (const st of stations) {
      expect(st.districtId).toBe(xuhui);
      // Snapped to a regular stop (made into a 定制站点 linked to it), or to a 定制站点 the network already links to one.
      if (st.busStationId) expect(made.stops.some((x) => (x.kind === 'bus' && x.id === st.busStationId) || (x.kind === 'custom' && x.id === st.id))).toBe(true);
    }
    const classes = await db().select().from(cb.customClasses).where(eq(cb.customClasses.lineId, made.lineId));
    expect(classes.length).toBe(made.classes);
    expect(classes.length).toBeGreaterThanOrEqual(4);
    expect(classes.length).toBeLessThanOrEqual(5);
    for (const c of classes) {
      expect(c).toMatchObject({ status: 0, publish: 33, stock: 33, price: 900, direction: 0, departTime: made.departTime });
      const w = new Date(`${c.departDate}T00:00:00Z`).getUTCDay();
      expect(w >= 1 && w <= 5).toBe(true);
    }
    expect(await audits('CUSTOM_DEMAND_TO_LINE', `custom-line/${made.lineId}`)).toHaveLength(1);
    // The same stop again reuses the 定制站点 made for it.
    const again = await toLine(manager, { cluster, lineNo: lineNo() });
    const stops2 = await db().select().from(cb.customLineStops).where(eq(cb.customLineStops.lineId, again.body.data.lineId)).orderBy(asc(cb.customLineStops.seq));
    expect(stops2.map((x) => x.stationId)).toEqual(stops.map((x) => x.stationId));
  });

  it('from a demand: links it (已开通) to the new line; below the threshold it needs an 开通说明', async () => {
    const low = await demand(xuhui, { supporters: 8 });
    const before = await counts();
    const refused = await toLine(manager, { demandId: low.id, lineNo: lineNo() });
    expect(refused.body).toMatchObject({ code: 0, msg: '报名人数未达开通门槛（8/30），请填写开通说明' });
    expect(await counts()).toEqual(before);
    const ok = await toLine(manager, { demandId: low.id, lineNo: lineNo(), reply: '试点开通，继续征集' });
    expect(ok.body.code, ok.body.msg).toBe(1);
    expect(ok.body.data.demand).toMatchObject({ id: low.id, state: 1, lineId: ok.body.data.lineId, reply: '试点开通，继续征集' });
    const [line] = await db().select().from(cb.customLines).where(eq(cb.customLines.id, ok.body.data.lineId));
    expect(line!.demandId).toBe(low.id);
    // Done once: a second time is refused.
    const twice = await toLine(manager, { demandId: low.id, lineNo: lineNo(), reply: '再来' });
    expect(twice.body.msg).toBe('该需求已开通，不能再生成线路');
  });

  it('refuses an end with no station within 1 km, and a taken line number; nothing changed', async () => {
    const sea = await demand(xuhui, { toName: '东海', toLng: 122.6, toLat: 31.0 });
    const before = await counts();
    const far = await toLine(manager, { demandId: sea.id, lineNo: lineNo() });
    expect(far.body).toMatchObject({ code: 0, msg: '终点「东海」1公里内没有可用站点，不能生成线路' });
    const d = await demand(xuhui);
    const first = await toLine(manager, { demandId: d.id, lineNo: 'DUPX1' });
    expect(first.body.code).toBe(1);
    const mid = await counts();
    const d2 = await demand(xuhui);
    const dup = await toLine(manager, { demandId: d2.id, lineNo: 'DUPX1' });
    expect(dup.body.msg).toBe('线路编号DUPX1已存在');
    expect(await counts()).toEqual({ ...mid, logs: mid.logs });
    expect((await stored(d2.id)).state).toBe(0);
    expect((await stored(sea.id)).state).toBe(0);
    expect(before.lines + 1).toBe(mid.lines);
  });

  it('is all or nothing: a failure writing the classes leaves no line, stop, station or link behind', async () => {
    const d = await demand(xuhui);
    const before = await counts();
    await db().execute(sql`create or replace function custom_demand_test_fail() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$`);
    await db().execute(sql`create trigger custom_demand_test_fail before insert on custom_classes for each statement execute function custom_demand_test_fail()`);
    try {
      const res = await toLine(manager, { demandId: d.id, lineNo: lineNo() });
      expect(res.body.code).not.toBe(1);
    } finally {
      await db().execute(sql`drop trigger custom_demand_test_fail on custom_classes`);
    }
    const after = await counts();
    expect({ ...after, logs: 0 }).toEqual({ ...before, logs: 0 });
    expect(await stored(d.id)).toMatchObject({ state: 0, lineId: null });
  });

  it('refuses the viewer, the agent, a foreign district and malformed bodies; nothing changed', async () => {
    const d = await demand(xuhui);
    const foreign = await demand(huangpu);
    const [a, b] = await twoStops(huangpu);
    const before = await counts();
    for (const token of [viewer, agent]) expect((await toLine(token, { demandId: d.id, lineNo: lineNo() })).status).toBe(403);
    expect((await toLine(manager, { demandId: foreign.id, lineNo: lineNo() })).status).toBe(403);
    expect((await toLine(manager, { cluster: { districtId: huangpu, homeCell: cellOf(a.lng, a.lat), workCell: cellOf(b.lng, b.lat), window: 7 * 3600 }, lineNo: lineNo() })).status).toBe(403);
    for (const body of [
      { demandId: d.id, lineNo: lineNo(), name: '长'.repeat(16) },
      { demandId: d.id, lineNo: '线路一' },
      { demandId: d.id, lineNo: lineNo(), price: 0 },
      { demandId: d.id, lineNo: lineNo(), seats: 81 },
      { lineNo: lineNo() },
      { cluster: { districtId: xuhui, homeCell: 'a:b', workCell: '1:2', window: 100 }, lineNo: lineNo() },
      { demandId: d.id, lineNo: lineNo(), reply: '长'.repeat(201) },
    ]) {
      const res = await toLine(manager, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toMatch(CJK);
    }
    const past = await toLine(manager, { demandId: d.id, lineNo: lineNo(), startDate: '2020-01-01' });
    expect(past.body.msg).toBe('首班日期不能早于明天');
    expect({ ...(await counts()), logs: 0 }).toEqual({ ...before, logs: 0 });
    expect((await stored(d.id)).state).toBe(0);
  });
});
