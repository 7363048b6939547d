import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as net from '../../src/shared/api/custom-bus/network';
import * as t from '../../src/server/db/schema';
import { customClasses, customLinePaths, customLineStops, customLines, customStations } from '../../src/server/modules/custom-bus/schema';
import { createPii } from '../../src/server/lib/pii';
import { fixtureClass, fixtureLine, fixturePaidOrder, fixtureStations } from '../support/custom-bus-fixture';
import { exportThroughTask } from '../support/export-task';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';

/** 定制站点、定制线路与轨迹 against the real server: roles, scope, input, every refusal with nothing changed, audit rows, exports. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const fx = () => ({ db: db(), pii, now: s.clock.now() });

beforeAll(async () => {
  s = await startTestServer();
  [admin, manager, viewer, agent] = (await Promise.all(['admin', 'manager', 'viewer', 'agent'].map((u) => s.login(u)))) as [string, string, string, string];
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
const storedStation = async (id: number) => (await db().select().from(customStations).where(eq(customStations.id, id)))[0];
const storedLine = async (id: number) => (await db().select().from(customLines).where(eq(customLines.id, id)))[0];
const stopsOf = (lineId: number) => db().select().from(customLineStops).where(eq(customLineStops.lineId, lineId)).orderBy(customLineStops.direction, customLineStops.seq);

let seq = 0;
const uniqueName = (p: string) => `${p}${Date.now().toString(36).slice(-4)}${seq++}`;
const stationForm = (over: Record<string, unknown> = {}) => ({ name: uniqueName('测试站'), address: '测试路1号', lng: 121.43, lat: 31.18, ...over });
const lineForm = (start: number, end: number, over: Record<string, unknown> = {}) => ({
  lineNo: uniqueName('T').toUpperCase().slice(0, 12),
  name: uniqueName('测试线路').slice(0, 15),
  direction: 0,
  startStationId: start,
  endStationId: end,
  departTime: '07:30',
  arriveTime: '08:20',
  originalPrice: 1500,
  discountType: 2,
  discountRate: 800,
  ticketTypes: [1, 2],
  defaultSeats: 45,
  ...over,
});

describe('the seeded network (second wave §5, §13; small profile)', () => {
  it('stations and lines in each district; 往返 lines have a path of ≥2 stops on both legs; a draft has none', async () => {
    const lines = (await s.call(net.linePage, { token: admin, query: { size: 200 } })).body.data.content;
    const districts = new Set(lines.map((l) => l.districtId));
    expect(districts.size).toBe(3);
    for (const d of districts) expect(lines.filter((l) => l.districtId === d)).toHaveLength(2);
    const listed = lines.filter((l) => l.status === 1);
    expect(listed.length).toBeGreaterThan(0);
    for (const l of listed) {
      expect(l.upStops).toBeGreaterThanOrEqual(l.direction === 1 ? 0 : 2);
      if (l.direction === -1) expect(l.downStops).toBeGreaterThanOrEqual(2);
      expect(l.price).toBe(net.derivedPrice(l));
    }
    expect(lines.some((l) => l.status === 0 && l.upStops === 0)).toBe(true);
    const path = (await s.call(net.linePath, { token: admin, query: { lineId: listed[0]!.id } })).body.data;
    for (const leg of path.legs) {
      expect(leg.points.length).toBeGreaterThanOrEqual(2);
      const offs = leg.stops.map((x) => x.offsetMin);
      expect(offs).toEqual([...offs].sort((a, b) => a - b));
    }
    const stations = (await s.call(net.stationPage, { token: admin, query: { size: 1000 } })).body.data.content;
    expect(stations.length).toBeGreaterThanOrEqual(12);
    expect(stations.some((x) => x.busStationId !== null)).toBe(true);
  });
});

describe('定制站点', () => {
  it('list: scope, filters, summary; the viewer has no menu', async () => {
    const mine = (await s.call(net.stationPage, { token: manager, query: { size: 1000 } })).body.data.content;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((x) => x.districtId === xuhui)).toBe(true);
    expect((await s.call(net.stationPage, { token: viewer })).status).toBe(403);
    const total = (await s.call(net.stationTotal, { token: manager })).body.data;
    expect(total.total).toBe(mine.length);
    expect(total.enabled + total.disabled).toBe(total.total);
    expect(total.linked).toBe(mine.filter((x) => x.busStationId !== null).length);
    expect(total.used).toBe(mine.filter((x) => x.lines > 0).length);
    const linked = (await s.call(net.stationPage, { token: manager, query: { linked: 'true', size: 1000 } })).body.data.content;
    expect(linked.every((x) => x.busStationId !== null && x.busStationName)).toBe(true);
    const named = (await s.call(net.stationPage, { token: manager, query: { name: mine[0]!.name } })).body.data.content;
    expect(named.map((x) => x.id)).toContain(mine[0]!.id);
    expect((await s.call(net.stationPage, { token: manager, query: { status: '7' } })).body.code).not.toBe(1);
    expect((await s.call(net.stationPage, { token: manager, query: { sort: 'hack,asc' } })).body.code).not.toBe(1);
  });

  it('新增 / 编辑: audited; stale versions refused; names unique per district; too long, malformed and foreign refused with nothing written', async () => {
    const created = await s.call(net.stationSave, { token: manager, body: stationForm() });
    expect(created.body.code, created.body.msg).toBe(1);
    const st = created.body.data;
    expect(st).toMatchObject({ districtId: xuhui, status: 1, lines: 0 });
    expect(await audits('CUSTOM_STATION_SAVE', `customStation/${st.id}`)).toHaveLength(1);

    const edited = await s.call(net.stationSave, { token: manager, body: { ...stationForm({ name: st.name, address: '新地址' }), id: st.id, rowVersion: st.rowVersion } });
    expect(edited.body.data.address).toBe('新地址');
    const stale = await s.call(net.stationSave, { token: manager, body: { ...stationForm({ name: st.name, address: '旧版本' }), id: st.id, rowVersion: st.rowVersion } });
    expect(stale.body.code).not.toBe(1);
    expect((stale.body.data as { stale?: boolean }).stale).toBe(true);
    expect((await storedStation(st.id))!.address).toBe('新地址');

    const before = (await db().select().from(customStations)).length;
    const dup = await s.call(net.stationSave, { token: manager, body: stationForm({ name: st.name }) });
    expect(dup.body.msg).toBe(`站点名称「${st.name}」已存在`);
    expect((await s.call(net.stationSave, { token: manager, body: stationForm({ name: '站'.repeat(21) }) })).body.msg).toContain('站点名称不能超过20个字符');
    expect((await s.call(net.stationSave, { token: manager, body: stationForm({ lng: 'east' }) })).body.code).not.toBe(1);
    expect((await s.call(net.stationSave, { token: manager, body: stationForm({ lat: 80 }) })).body.code).not.toBe(1);
    expect((await s.call(net.stationSave, { token: manager, body: { lng: 121, lat: 31 } })).body.code).not.toBe(1);
    expect((await s.call(net.stationSave, { token: agent, body: stationForm() })).status).toBe(403);
    expect((await s.call(net.stationSave, { token: viewer, body: stationForm() })).status).toBe(403);
    // A regular stop of another district cannot be linked.
    const [foreignStop] = await db().select().from(t.stations).where(eq(t.stations.districtId, huangpu)).limit(1);
    expect((await s.call(net.stationSave, { token: manager, body: stationForm({ busStationId: foreignStop!.id }) })).body.msg).toBe('关联的公交站点须与定制站点属于同一区域');
    const [ownStop] = await db().select().from(t.stations).where(eq(t.stations.districtId, xuhui)).limit(1);
    const link = await s.call(net.stationSave, { token: manager, body: stationForm({ busStationId: ownStop!.id }) });
    expect(link.body.data.busStationName).toBe(ownStop!.name);
    expect((await db().select().from(customStations)).length).toBe(before + 1);
    // A station of another district: neither read-modified nor moved.
    const [foreign] = await fixtureStations(fx(), huangpu, 1);
    const res = await s.call(net.stationSave, { token: manager, body: { ...stationForm(), id: foreign!.id } });
    expect(res.status).toBe(403);
    expect((await storedStation(foreign!.id))!.name).toBe(foreign!.name);
  });

  it('启用/停用 and 删除: guarded; a used station is neither deleted nor stopped while a listed line uses it', async () => {
    const [free] = await fixtureStations(fx(), xuhui, 1);
    const stop = await s.call(net.stationUpdateStatus, { token: manager, body: { id: free!.id, fromStatus: 1, toStatus: 0 } });
    expect(stop.body.data.status).toBe(0);
    const twice = await s.call(net.stationUpdateStatus, { token: manager, body: { id: free!.id, fromStatus: 1, toStatus: 0 } });
    expect(twice.body.code).not.toBe(1);
    expect(await audits('CUSTOM_STATION_STATUS', `customStation/${free!.id}`)).toHaveLength(1);
    expect((await s.call(net.stationUpdateStatus, { token: agent, body: { id: free!.id, fromStatus: 0, toStatus: 1 } })).status).toBe(403);

    const { line, stations } = await fixtureLine(fx(), xuhui);
    const used = await s.call(net.stationDelete, { token: manager, query: { id: stations[0].id } });
    expect(used.body.msg).toBe(`站点已被线路「${line.name}」使用，不能删除`);
    expect(await storedStation(stations[0].id)).toBeTruthy();
    const stopUsed = await s.call(net.stationUpdateStatus, { token: manager, body: { id: stations[1].id, fromStatus: 1, toStatus: 0 } });
    expect(stopUsed.body.msg).toBe(`站点正被已上架线路「${line.name}」使用，不能停用，请先下架线路`);
    expect((await storedStation(stations[1].id))!.status).toBe(1);

    const [foreign] = await fixtureStations(fx(), huangpu, 1);
    expect((await s.call(net.stationDelete, { token: manager, query: { id: foreign!.id } })).status).toBe(403);
    expect(await storedStation(foreign!.id)).toBeTruthy();
    expect((await s.call(net.stationDelete, { token: manager, query: { id: 'x' } })).body.code).not.toBe(1);

    const del = await s.call(net.stationDelete, { token: manager, query: { id: free!.id } });
    expect(del.body.code).toBe(1);
    expect(await storedStation(free!.id)).toBeUndefined();
    expect(await audits('CUSTOM_STATION_DELETE', `customStation/${free!.id}`)).toHaveLength(1);
  });

  it('export: a 下载中心 task of the area’s stations, formula-like text escaped, audited; the viewer refused', async () => {
    const [victim] = await fixtureStations(fx(), xuhui, 1);
    await db().update(customStations).set({ address: '=HYPERLINK("http://x")' }).where(eq(customStations.id, victim!.id));
    const stored = await db().select().from(customStations).where(eq(customStations.districtId, xuhui));
    const { sheet, task } = await exportThroughTask(s, net.stationExport, manager);
    expect(task.title).toBe('定制站点');
    expect(sheet.rows.slice(1).map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(stored.map((x) => x.id).sort((a, b) => a - b));
    expect(sheet.rows.find((r) => r[0] === String(victim!.id))![2]).toBe('\'=HYPERLINK("http://x")');
    const [log] = await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'CUSTOM_EXPORT'));
    expect(log).toBeTruthy();
    expect((await s.call(net.stationExport, { token: viewer })).status).toBe(403);
  });
});

describe('定制线路', () => {
  it('list: scope, filters, summary, detail; foreign detail refused', async () => {
    const mine = (await s.call(net.linePage, { token: manager, query: { size: 1000 } })).body.data.content;
    expect(mine.every((l) => l.districtId === xuhui)).toBe(true);
    const total = (await s.call(net.lineTotal, { token: manager })).body.data;
    expect(total.total).toBe(mine.length);
    expect(total.draft + total.onSale + total.offSale).toBe(total.total);
    expect(total.roundTrip).toBe(mine.filter((l) => l.direction === -1).length);
    const kw = (await s.call(net.linePage, { token: manager, query: { keyword: mine[0]!.lineNo } })).body.data.content;
    expect(kw.map((l) => l.id)).toContain(mine[0]!.id);
    const rt = (await s.call(net.linePage, { token: manager, query: { direction: '-1' } })).body.data.content;
    expect(rt.every((l) => l.direction === -1)).toBe(true);
    const at = mine.find((l) => l.startStationId)!;
    const through = (await s.call(net.linePage, { token: manager, query: { stationId: at.startStationId! } })).body.data.content;
    expect(through.map((l) => l.id)).toContain(at.id);
    expect((await s.call(net.lineById, { token: manager, query: { id: at.id } })).body.data.lineNo).toBe(at.lineNo);
    const { line: foreign } = await fixtureLine(fx(), huangpu);
    expect((await s.call(net.lineById, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    expect((await s.call(net.linePath, { token: manager, query: { lineId: foreign.id } })).status).toBe(403);
    expect((await s.call(net.linePage, { token: viewer })).status).toBe(403);
  });

  it('新增: a draft with the derived price, audited; every form rule refused with nothing written', async () => {
    const [a, b] = await fixtureStations(fx(), xuhui, 2);
    const ok = await s.call(net.lineSave, { token: manager, body: lineForm(a!.id, b!.id) });
    expect(ok.body.code, ok.body.msg).toBe(1);
    expect(ok.body.data).toMatchObject({ status: 0, price: 1200, discountRate: 800, departTime: '07:30', startStationName: a!.name });
    expect(await audits('CUSTOM_LINE_SAVE', `customLine/${ok.body.data.id}`)).toHaveLength(1);
    const count = async () => (await db().select().from(customLines)).length;
    const before = await count();
    // Contract refusals come as 参数错误：…, the service's as they are.
    const refusal = async (over: Record<string, unknown>) => (await s.call(net.lineSave, { token: manager, body: lineForm(a!.id, b!.id, over) })).body.msg.replace(/^参数错误：/, '');
    expect(await refusal({ name: '一二三四五六七八九十一二三四五六' })).toBe('线路名称不能超过15个字');
    expect(await refusal({ discountRate: 995 })).toBe('折扣应在0.1–9.9折之间');
    expect(await refusal({ discountRate: 5 })).toBe('折扣应在0.1–9.9折之间');
    expect(await refusal({ discountType: 3, discountPrice: 1600 })).toBe('折后金额不能高于原价');
    expect(await refusal({ direction: -1 })).toBe('往返线路须填写返程出发和到达时间');
    expect(await refusal({ returnDepartTime: '17:30', returnArriveTime: '18:20' })).toBe('只有往返线路才填写返程时间');
    expect(await refusal({ arriveTime: '07:00' })).toBe('到达时间须晚于出发时间');
    expect(await refusal({ endStationId: a!.id })).toBe('起点站和终点站不能相同');
    expect(await refusal({ ticketTypes: [3] })).toBe('票种应为 单次票(1) 或 月票(2)');
    expect(await refusal({ ticketTypes: [] })).toBe('请至少选择一种票种');
    expect(await refusal({ departTime: '7:30' })).toBe('出发时间应为 HH:mm（如 07:30）');
    expect(await refusal({ lineNo: 'D 1' })).toBe('线路编号只能包含字母、数字和-，如 D101');
    expect(await refusal({ lineNo: ok.body.data.lineNo })).toBe(`线路编号「${ok.body.data.lineNo}」已存在`);
    const [foreignStation] = await fixtureStations(fx(), huangpu, 1);
    expect(await refusal({ endStationId: foreignStation!.id })).toBe('终点站不属于线路所在区域');
    expect((await s.call(net.lineSave, { token: manager, body: { name: 'x' } })).body.code).not.toBe(1);
    expect((await s.call(net.lineSave, { token: agent, body: lineForm(a!.id, b!.id) })).status).toBe(403);
    expect(await count()).toBe(before);
    // 往返 with return times; 折后金额.
    const rt = await s.call(net.lineSave, { token: manager, body: lineForm(a!.id, b!.id, { direction: -1, returnDepartTime: '17:30', returnArriveTime: '18:20', discountType: 3, discountPrice: 1000, discountRate: null }) });
    expect(rt.body.data).toMatchObject({ direction: -1, price: 1000, returnDepartTime: '17:30', discountRate: null });
  });

  it('编辑: stale saves refused; a listed line keeps its direction; a dropped leg loses its stops', async () => {
    const { line, stations } = await fixtureLine(fx(), xuhui, { direction: -1, returnDepartTime: 63000, returnArriveTime: 66600, status: 2 });
    const body = lineForm(stations[0].id, stations[1].id, { id: line.id, lineNo: line.lineNo, name: line.name, direction: 0, rowVersion: line.rowVersion });
    const stale = await s.call(net.lineSave, { token: manager, body: { ...body, rowVersion: line.rowVersion + 5 } });
    expect((stale.body.data as { stale?: boolean }).stale).toBe(true);
    expect((await storedLine(line.id))!.direction).toBe(-1);
    const saved = await s.call(net.lineSave, { token: manager, body });
    expect(saved.body.code, saved.body.msg).toBe(1);
    expect(saved.body.data).toMatchObject({ direction: 0, upStops: 2, downStops: 0, returnDepartTime: null });
    expect((await stopsOf(line.id)).every((x) => x.direction === 0)).toBe(true);

    const { line: listed, stations: st2 } = await fixtureLine(fx(), xuhui);
    const turn = await s.call(net.lineSave, { token: manager, body: lineForm(st2[0].id, st2[1].id, { id: listed.id, lineNo: listed.lineNo, name: listed.name, direction: 1 }) });
    expect(turn.body.msg).toBe('已上架线路不能修改方向，请先下架');
    expect((await storedLine(listed.id))!.direction).toBe(0);
  });

  it('上架 needs a path of ≥2 stops on every leg; 下架 and 删除 wait for sold future classes; delete only without orders', async () => {
    const [a, b] = await fixtureStations(fx(), xuhui, 2);
    const draft = (await s.call(net.lineSave, { token: manager, body: lineForm(a!.id, b!.id, { direction: -1, returnDepartTime: '17:30', returnArriveTime: '18:20' }) })).body.data;
    const up = await s.call(net.lineUpdateStatus, { token: manager, body: { id: draft.id, fromStatus: 0, toStatus: 1 } });
    expect(up.body.msg).toBe('上架前请先设置上行轨迹（至少2个站点）');
    await s.call(net.linePathSave, { token: manager, body: { lineId: draft.id, direction: 0, stops: [{ stationId: a!.id, offsetMin: 0 }, { stationId: b!.id, offsetMin: 40 }], points: [] } });
    expect((await s.call(net.lineUpdateStatus, { token: manager, body: { id: draft.id, fromStatus: 0, toStatus: 1 } })).body.msg).toBe('上架前请先设置下行轨迹（至少2个站点）');
    expect((await storedLine(draft.id))!.status).toBe(0);
    await s.call(net.linePathSave, { token: manager, body: { lineId: draft.id, direction: 1, stops: [{ stationId: b!.id, offsetMin: 0 }, { stationId: a!.id, offsetMin: 45 }], points: [] } });
    expect((await s.call(net.lineUpdateStatus, { token: agent, body: { id: draft.id, fromStatus: 0, toStatus: 1 } })).status).toBe(403);
    const listed = await s.call(net.lineUpdateStatus, { token: manager, body: { id: draft.id, fromStatus: 0, toStatus: 1 } });
    expect(listed.body.data.status).toBe(1);
    expect((await s.call(net.lineUpdateStatus, { token: manager, body: { id: draft.id, fromStatus: 0, toStatus: 1 } })).body.code).not.toBe(1);
    expect((await s.call(net.lineDelete, { token: manager, query: { id: draft.id } })).body.msg).toBe('已上架线路不能删除，请先下架');

    const { line } = await fixtureLine(fx(), xuhui);
    const cls = await fixtureClass(fx(), line, 2);
    await fixturePaidOrder(fx(), cls);
    const down = await s.call(net.lineUpdateStatus, { token: manager, body: { id: line.id, fromStatus: 1, toStatus: 2 } });
    expect(down.body.msg).toBe('线路仍有已售出的未发车班次，请先取消班次');
    expect((await storedLine(line.id))!.status).toBe(1);
    await db().update(customLines).set({ status: 2 }).where(eq(customLines.id, line.id));
    expect((await s.call(net.lineDelete, { token: manager, query: { id: line.id } })).body.msg).toBe('线路仍有已售出的未发车班次，请先取消班次');
    await db().update(customClasses).set({ status: 4 }).where(eq(customClasses.id, cls.id));
    expect((await s.call(net.lineDelete, { token: manager, query: { id: line.id } })).body.msg).toBe('该线路已有订单，不能删除，请保持下架');
    expect(await storedLine(line.id)).toBeTruthy();

    const off = await s.call(net.lineUpdateStatus, { token: manager, body: { id: draft.id, fromStatus: 1, toStatus: 2, reason: '客流不足' } });
    expect(off.body.data.status).toBe(2);
    expect(await audits('CUSTOM_LINE_STATUS', `customLine/${draft.id}`)).toHaveLength(2);
    const { line: foreign } = await fixtureLine(fx(), huangpu);
    expect((await s.call(net.lineUpdateStatus, { token: manager, body: { id: foreign.id, fromStatus: 1, toStatus: 2 } })).status).toBe(403);
    expect((await s.call(net.lineDelete, { token: manager, query: { id: foreign.id } })).status).toBe(403);
    // An unsold class goes with the deleted line.
    await fixtureClass(fx(), { ...off.body.data, departTime: 27000, arriveTime: 30000 } as never, 3, { lineId: draft.id, direction: 0 });
    const del = await s.call(net.lineDelete, { token: manager, query: { id: draft.id } });
    expect(del.body.code, del.body.msg).toBe(1);
    expect(await storedLine(draft.id)).toBeUndefined();
    expect(await stopsOf(draft.id)).toHaveLength(0);
    expect(await audits('CUSTOM_LINE_DELETE', `customLine/${draft.id}`)).toHaveLength(1);
  });

  it('轨迹: a leg’s whole ordered list replaced; every refusal leaves the saved one; the line’s version moves', async () => {
    const { line, stations } = await fixtureLine(fx(), xuhui, { status: 0 });
    const [c] = await fixtureStations(fx(), xuhui, 1);
    const save = (body: Record<string, unknown>, token = manager) => s.call(net.linePathSave, { token, body: { lineId: line.id, direction: 0, points: [], ...body } });
    const three = [
      { stationId: stations[0].id, offsetMin: 0, mode: 1 },
      { stationId: c!.id, offsetMin: 15 },
      { stationId: stations[1].id, offsetMin: 50, mode: 2 },
    ];
    const before = await stopsOf(line.id);
    expect((await save({ stops: three.slice(0, 1) })).body.msg).toBe('线路至少需要2个站点');
    expect((await save({ stops: [three[0], { ...three[1]!, offsetMin: 0 }, three[2]] })).body.msg).toBe('站点到达时间须依次递增');
    expect((await save({ stops: [three[0], three[1], { ...three[2]!, stationId: stations[0].id }] })).body.msg).toBe(`站点「${stations[0].name}」重复`);
    expect((await save({ direction: 1, stops: three })).body.msg).toBe('该线路没有下行方向');
    expect((await save({ stops: three, points: [[121.4, 31.2]] })).body.msg).toBe('轨迹至少需要2个点，或不画轨迹');
    expect((await save({ stops: three, points: [[500, 31.2], [121.4, 31.2]] })).body.code).not.toBe(1);
    expect((await save({ stops: three.map((x) => ({ ...x, offsetMin: 9999 })) })).body.code).not.toBe(1);
    expect((await save({ stops: Array.from({ length: 61 }, () => three[0]) })).body.msg).toContain('一个方向最多60个站点');
    const [foreign] = await fixtureStations(fx(), huangpu, 1);
    expect((await save({ stops: [three[0], { stationId: foreign!.id, offsetMin: 30 }] })).body.msg).toContain('不属于线路所在区域');
    expect((await save({ stops: three }, agent)).status).toBe(403);
    expect((await save({ stops: three, rowVersion: line.rowVersion + 3 })).body.data).toMatchObject({ stale: true });
    expect(await stopsOf(line.id)).toEqual(before);
    expect(await audits('CUSTOM_LINE_PATH_SAVE', `customLine/${line.id}`)).toHaveLength(0);

    const ok = await save({ stops: three, points: [[121.4, 31.2], [121.41, 31.21], [121.42, 31.2]], rowVersion: line.rowVersion });
    expect(ok.body.code, ok.body.msg).toBe(1);
    expect(ok.body.data.legs[0]!.stops.map((x) => [x.stationId, x.seq, x.offsetMin, x.mode])).toEqual([
      [stations[0].id, 1, 0, 1],
      [c!.id, 2, 15, 0],
      [stations[1].id, 3, 50, 2],
    ]);
    expect(ok.body.data.legs[0]!.points).toHaveLength(3);
    expect(ok.body.data.line.rowVersion).toBe(line.rowVersion + 1);
    expect((await db().select().from(customLinePaths).where(eq(customLinePaths.lineId, line.id))).length).toBe(1);
    const [log] = await audits('CUSTOM_LINE_PATH_SAVE', `customLine/${line.id}`);
    expect(log!.summary).toContain('3站');
    const read = (await s.call(net.linePath, { token: manager, query: { lineId: line.id } })).body.data;
    expect(read.legs[0]!.stops).toHaveLength(3);
    // Now the station is used: it cannot be deleted.
    expect((await s.call(net.stationDelete, { token: manager, query: { id: c!.id } })).body.msg).toBe(`站点已被线路「${line.name}」使用，不能删除`);
  });

  it('export: a task of the area’s lines, escaped and audited', async () => {
    const { line } = await fixtureLine(fx(), xuhui);
    await db().update(customLines).set({ remark: '=cmd|"/c calc"!A1' }).where(eq(customLines.id, line.id));
    const stored = await db().select().from(customLines).where(eq(customLines.districtId, xuhui));
    const { sheet, task } = await exportThroughTask(s, net.lineExport, manager);
    expect(task.title).toBe('定制线路');
    expect(sheet.rows.slice(1).map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(stored.map((x) => x.id).sort((a, b) => a - b));
    const row = sheet.rows.find((r) => r[0] === String(line.id))!;
    expect(row[20]).toBe('\'=cmd|"/c calc"!A1');
    const listed = await exportThroughTask(s, net.lineExport, manager, { status: '1' });
    expect(listed.task.title).toBe('定制线路 已上架');
    expect(listed.sheet.rows.length - 1).toBe(stored.filter((l) => l.status === 1).length);
    expect((await s.call(net.lineExport, { token: viewer })).status).toBe(403);
  });
});
