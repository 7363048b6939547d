import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fleet from '../../src/shared/api/custom-bus/fleet';
import * as t from '../../src/server/db/schema';
import { customCars, customClasses, customDrivers } from '../../src/server/modules/custom-bus/schema';
import { fleetProblems } from '../../src/server/modules/custom-bus/fleet-service';
import { createPii } from '../../src/server/lib/pii';
import { citizenCheckChar } from '../../src/shared/domain/citizen-id';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { TEST_PII_KEY, type TestServer, startTestServer } from '../support/test-server';
import { exportThroughTask } from '../support/export-task';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureDriver, fixtureLine } from '../support/custom-bus-fixture';

/** 车辆管理与司机管理 against the real server: roles, scope, input, every refusal (nothing changed), audit, reveal, exports, fleetProblems. */
let s: TestServer;
let admin: string;
let manager: string;
let viewer: string;
let agent: string;
let xuhui: number;
let huangpu: number;

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const fx = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
const today = () => shanghaiDate(s.clock.now());

let seq = 0;
/** A valid citizen id of the test's own (the checksum computed). */
function citizenId(): string {
  seq++;
  const first17 = `310104198${seq % 10}0${(seq % 9) + 1}1${String(seq % 9)}${String(100 + ((Date.now() + seq * 37) % 900)).padStart(3, '0')}`;
  return first17 + citizenCheckChar(first17);
}
/** A mobile number of the test's own. */
const mobile = () => `137${String((Date.now() * 7 + ++seq * 7919) % 100_000_000).padStart(8, '0')}`;
/** A plate of the test's own: 沪 + a letter + five digits. */
const plate = () => `沪K${String((Date.now() + ++seq * 131) % 100_000).padStart(5, '0')}`;

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
const storedCar = async (id: number) => (await db().select().from(customCars).where(eq(customCars.id, id)))[0]!;
const storedDriver = async (id: number) => (await db().select().from(customDrivers).where(eq(customDrivers.id, id)))[0]!;
const carForm = (over: Record<string, unknown> = {}) => ({ plateNo: plate(), seats: 45, model: '宇通ZK6107', company: '测试客运', inspectionUntil: addDays(today(), 200), insuranceUntil: addDays(today(), 200), ...over });
const driverForm = (over: Record<string, unknown> = {}) => ({ name: '王建华', phone: mobile(), idNo: citizenId(), licenceClass: 'A1', licenceUntil: addDays(today(), 400), ...over });

describe('the seed (small profile)', () => {
  it('two cars and two drivers per district, masked in the lists', async () => {
    const cars = (await s.call(fleet.carPage, { token: admin, query: { size: 100 } })).body.data.content;
    const drivers = (await s.call(fleet.driverPage, { token: admin, query: { size: 100 } })).body.data.content;
    const seeded = (await db().select().from(t.districts)).slice(0, 3).map((d) => d.id);
    for (const d of seeded) {
      expect(cars.filter((c) => c.districtId === d).length).toBeGreaterThanOrEqual(2);
      expect(drivers.filter((c) => c.districtId === d).length).toBeGreaterThanOrEqual(2);
    }
    for (const d of drivers) {
      expect(d.phone).toMatch(/^1\d{2}\*{4}\d{4}$/);
      expect(d.idNo).toMatch(/^\d{3}\*{11}\d{3}[\dX]$/);
    }
  });
});

describe('车辆管理', () => {
  it('reads: the manager and the agent their district only; the viewer has no 定制公交 menu', async () => {
    const mine = (await s.call(fleet.carPage, { token: manager, query: { size: 100 } })).body.data.content;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((c) => c.districtId === xuhui)).toBe(true);
    // The agent's own district, one only.
    const agents = (await s.call(fleet.carPage, { token: agent, query: { size: 100 } })).body.data.content;
    expect(agents.length).toBeGreaterThan(0);
    expect(new Set(agents.map((c) => c.districtId)).size).toBe(1);
    expect((await s.call(fleet.carPage, { token: viewer })).status).toBe(403);
    expect((await s.call(fleet.carTotal, { token: viewer })).status).toBe(403);
    expect((await s.call(fleet.carExport, { token: viewer })).status).toBe(403);
  });

  it('adds a car (plate normalised, audited), refuses a duplicate plate and malformed input, changing nothing', async () => {
    const p = plate();
    const res = await s.call(fleet.carSave, { token: manager, body: carForm({ plateNo: ` ${p.slice(0, 2).toLowerCase()}${p.slice(2)} ` }) });
    expect(res.body.code, res.body.msg).toBe(1);
    const car = res.body.data;
    expect(car).toMatchObject({ plateNo: p, districtId: xuhui, status: 1, seats: 45, futureClasses: 0 });
    expect(await audits('CUSTOM_CAR_SAVE', `customCar/${car.id}`)).toHaveLength(1);
    const count = async () => (await db().select().from(customCars)).length;
    const before = await count();
    const dup = await s.call(fleet.carSave, { token: admin, body: carForm({ plateNo: p }), district: huangpu });
    expect(dup.body.msg).toBe('车牌号已存在');
    for (const bad of [
      carForm({ plateNo: '沪I12345' }),
      carForm({ plateNo: 'AB12345' }),
      carForm({ plateNo: '沪A123456789' }),
      carForm({ seats: 0 }),
      carForm({ seats: 81 }),
      carForm({ seats: '四十' }),
      carForm({ model: 'x'.repeat(31) }),
      carForm({ company: 'x'.repeat(31) }),
      carForm({ inspectionUntil: '2026-02-30' }),
      carForm({ insuranceUntil: undefined }),
      { seats: 45 },
    ]) {
      const r = await s.call(fleet.carSave, { token: manager, body: bad });
      expect(r.body.code, JSON.stringify(bad)).not.toBe(1);
    }
    expect(await count()).toBe(before);
    // New-energy plates both ways.
    for (const ev of ['沪AD12345', '沪A12345F'].map((x) => x.replace('12345', String(10000 + (seq++ % 89999))))) {
      const r = await s.call(fleet.carSave, { token: manager, body: carForm({ plateNo: ev }) });
      expect(r.body.code, `${ev} ${r.body.msg}`).toBe(1);
    }
  });

  it('roles: viewer and agent cannot add; the manager cannot edit another district’s car', async () => {
    for (const token of [viewer, agent]) expect((await s.call(fleet.carSave, { token, body: carForm() })).status).toBe(403);
    const foreign = await fixtureCar(fx(), huangpu);
    const r = await s.call(fleet.carSave, { token: manager, body: { ...carForm({ plateNo: foreign.plateNo }), id: foreign.id } });
    expect(r.status).toBe(403);
    const m = await s.call(fleet.carUpdateStatus, { token: manager, body: { id: foreign.id, fromStatus: 1, toStatus: 2 } });
    expect(m.status).toBe(403);
    expect((await storedCar(foreign.id)).status).toBe(1);
  });

  it('edits with the version seen; a stale save is refused with the record now', async () => {
    const car = await fixtureCar(fx(), xuhui);
    const first = await s.call(fleet.carSave, { token: manager, body: { ...carForm({ plateNo: car.plateNo, seats: 40 }), id: car.id, rowVersion: car.rowVersion } });
    expect(first.body.code, first.body.msg).toBe(1);
    expect(first.body.data.seats).toBe(40);
    const stale = await s.call(fleet.carSave, { token: manager, body: { ...carForm({ plateNo: car.plateNo, seats: 30 }), id: car.id, rowVersion: car.rowVersion } });
    expect(stale.body.code).not.toBe(1);
    expect((stale.body.data as unknown as { stale: boolean; current: { seats: number } }).current.seats).toBe(40);
    expect((await storedCar(car.id)).seats).toBe(40);
    expect(await audits('CUSTOM_CAR_SAVE', `customCar/${car.id}`)).toHaveLength(1);
  });

  it('seats cannot fall below a future class’s issue', async () => {
    const car = await fixtureCar(fx(), xuhui, { seats: 49 });
    const { line } = await fixtureLine(fx(), xuhui);
    await fixtureClass(fx(), line, 3, { carId: car.id, publish: 45 });
    const r = await s.call(fleet.carSave, { token: manager, body: { ...carForm({ plateNo: car.plateNo, seats: 40 }), id: car.id } });
    expect(r.body.msg).toBe('座位数不能少于已排班次的发行数量（45）');
    expect((await storedCar(car.id)).seats).toBe(49);
  });

  it('status: 可用 → 维修 → 可用 → 停用, guarded and audited; a wrong fromStatus or a flow the design lacks is refused', async () => {
    const car = await fixtureCar(fx(), xuhui);
    const move = (body: Record<string, unknown>) => s.call(fleet.carUpdateStatus, { token: manager, body: { id: car.id, ...body } });
    expect((await move({ fromStatus: 1, toStatus: 2, reason: '发动机检修' })).body.data.status).toBe(2);
    expect((await move({ fromStatus: 1, toStatus: 0 })).body.msg).toContain('已被他人处理');
    expect((await move({ fromStatus: 2, toStatus: 1 })).body.data.status).toBe(1);
    expect((await move({ fromStatus: 1, toStatus: 0 })).body.data.status).toBe(0);
    const bad = await move({ fromStatus: 0, toStatus: 2 });
    expect(bad.body.msg).toBe(`车辆${car.plateNo}不能从「停用」改为「维修」`);
    expect((await move({ fromStatus: 0, toStatus: 7 })).body.code).not.toBe(1);
    expect((await move({ fromStatus: 0, toStatus: 1, reason: 'x'.repeat(101) })).body.code).not.toBe(1);
    expect((await storedCar(car.id)).status).toBe(0);
    const rows = await audits('CUSTOM_CAR_STATUS', `customCar/${car.id}`);
    expect(rows).toHaveLength(3);
    expect(rows.some((r) => r.summary?.includes('发动机检修'))).toBe(true);
  });

  it('a car with future classes cannot go 维修 or 停用: the refusal lists them; cancelled and departed ones do not count', async () => {
    const car = await fixtureCar(fx(), xuhui);
    const { line } = await fixtureLine(fx(), xuhui);
    await fixtureClass(fx(), line, 2, { carId: car.id });
    await fixtureClass(fx(), line, 3, { carId: car.id, status: 4 });
    await fixtureClass(fx(), line, -2, { carId: car.id, status: 3, saleOpenAt: new Date(s.clock.now().getTime() - 5 * 86_400_000) });
    const r = await s.call(fleet.carUpdateStatus, { token: manager, body: { id: car.id, fromStatus: 1, toStatus: 2 } });
    expect(r.body.code).not.toBe(1);
    expect(r.body.msg).toContain(`车辆${car.plateNo}还有1个未发车班次（${line.lineNo} `);
    expect(r.body.msg).toContain('请先改派车辆后再改为「维修」');
    expect((r.body.data as unknown as { classes: unknown[] }).classes).toHaveLength(1);
    expect((await storedCar(car.id)).status).toBe(1);
    expect(await audits('CUSTOM_CAR_STATUS', `customCar/${car.id}`)).toHaveLength(0);
    const listed = (await s.call(fleet.carPage, { token: manager, query: { plateNo: car.plateNo } })).body.data.content;
    expect(listed[0]!.futureClasses).toBe(1);
  });

  it('expiry: days left, the 30天内到期 filter and the totals', async () => {
    const soon = await fixtureCar(fx(), xuhui, { inspectionUntil: addDays(today(), 10) });
    const gone = await fixtureCar(fx(), xuhui, { insuranceUntil: addDays(today(), -1) });
    const fine = await fixtureCar(fx(), xuhui);
    const list = (await s.call(fleet.carPage, { token: manager, query: { expiring: 'true', size: 1000 } })).body.data.content;
    const ids = list.map((c) => c.id);
    expect(ids).toContain(soon.id);
    expect(ids).toContain(gone.id);
    expect(ids).not.toContain(fine.id);
    expect(list.find((c) => c.id === soon.id)!.inspectionDays).toBe(10);
    expect(list.find((c) => c.id === gone.id)!.insuranceDays).toBe(-1);
    const total = (await s.call(fleet.carTotal, { token: manager })).body.data;
    const all = (await s.call(fleet.carPage, { token: manager, query: { size: 1000 } })).body.data.content;
    expect(total.total).toBe(all.length);
    expect(total.expired).toBe(all.filter((c) => Math.min(c.inspectionDays, c.insuranceDays) < 0).length);
    expect(total.expiring).toBe(all.filter((c) => Math.min(c.inspectionDays, c.insuranceDays) >= 0 && Math.min(c.inspectionDays, c.insuranceDays) <= 30).length);
    expect(total.available + total.repair + total.disabled).toBe(total.total);
    expect((await s.call(fleet.carPage, { token: manager, query: { expiring: 'maybe' } })).body.code).not.toBe(1);
    expect((await s.call(fleet.carPage, { token: manager, query: { sort: 'hack,asc' } })).body.code).not.toBe(1);
  });

  it('exports through the download centre, with the warnings in words', async () => {
    const car = await fixtureCar(fx(), xuhui, { inspectionUntil: addDays(today(), 5) });
    const { sheet } = await exportThroughTask(s, fleet.carExport, manager, { expiring: 'true' });
    const row = sheet.rows.find((r) => r.includes(car.plateNo));
    expect(row).toBeDefined();
    expect(row!.join('|')).toContain('5天后到期');
  });
});

describe('司机管理', () => {
  it('adds a driver: phone and id sealed with blind indexes, masked in the answer, audited without the values', async () => {
    const form = driverForm();
    const res = await s.call(fleet.driverSave, { token: manager, body: { ...form, phone: `${form.phone.slice(0, 3)} ${form.phone.slice(3)}` } });
    expect(res.body.code, res.body.msg).toBe(1);
    const d = res.body.data;
    expect(d.phone).toBe(`${form.phone.slice(0, 3)}****${form.phone.slice(7)}`);
    expect(d.idNo).toBe(`${form.idNo.slice(0, 3)}***********${form.idNo.slice(14)}`);
    expect(d.name).toBe('王建华');
    const row = await storedDriver(d.id);
    expect(pii.decrypt(row.phoneEnc)).toBe(form.phone);
    expect(pii.decrypt(row.idEnc)).toBe(form.idNo);
    expect(row.idIdx).toBe(pii.index('citizen', form.idNo));
    const logs = await audits('CUSTOM_DRIVER_SAVE', `customDriver/${d.id}`);
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs[0])).not.toContain(form.phone);
    expect(JSON.stringify(logs[0])).not.toContain(form.idNo);
  });

  it('refuses a duplicate id, a bad id or phone, too-long and missing fields, changing nothing', async () => {
    const first = driverForm();
    expect((await s.call(fleet.driverSave, { token: manager, body: first })).body.code).toBe(1);
    const count = async () => (await db().select().from(customDrivers)).length;
    const before = await count();
    const dup = await s.call(fleet.driverSave, { token: admin, body: driverForm({ idNo: first.idNo.toLowerCase() }), district: huangpu });
    expect(dup.body.msg).toBe('该身份证号的司机已存在');
    const badCheck = first.idNo.slice(0, 17) + (first.idNo[17] === '1' ? '2' : '1');
    for (const [bad, msg] of [
      [driverForm({ idNo: badCheck }), '身份证号不正确'],
      [driverForm({ phone: '12345' }), '手机号应为11位数字'],
      [driverForm({ phone: undefined }), '手机号不能为空'],
      [driverForm({ idNo: '' }), '身份证号不能为空'],
      [driverForm({ name: 'x'.repeat(21) }), '姓名不能超过20个字符'],
      [driverForm({ name: ' ' }), '姓名不能为空'],
      [driverForm({ licenceClass: 'C1' }), '准驾车型应为 A1、A3 或 B1'],
      [driverForm({ licenceUntil: 'tomorrow' }), '驾驶证有效期应为 YYYY-MM-DD'],
      [driverForm({ phone: '1'.repeat(21) }), '手机号不能超过20个字符'],
    ] as const) {
      const r = await s.call(fleet.driverSave, { token: manager, body: bad });
      expect(r.body.code).not.toBe(1);
      expect(r.body.msg).toContain(msg);
    }
    for (const token of [viewer, agent]) expect((await s.call(fleet.driverSave, { token, body: driverForm() })).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('an edit keeps the sealed values unless retyped; a stale edit is refused', async () => {
    const phone = mobile();
    const idNo = citizenId();
    const d = await fixtureDriver(fx(), xuhui, { phone, idNo });
    const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
    const r = await s.call(fleet.driverSave, { token: manager, body: { id: d.id, name: '李明', phone: masked, licenceClass: 'A3', licenceUntil: addDays(today(), 100), rowVersion: d.rowVersion } });
    expect(r.body.code, r.body.msg).toBe(1);
    const row = await storedDriver(d.id);
    expect(pii.decrypt(row.phoneEnc)).toBe(phone);
    expect(pii.decrypt(row.idEnc)).toBe(idNo);
    expect(row.name).toBe('李明');
    const stale = await s.call(fleet.driverSave, { token: manager, body: { id: d.id, name: '李强', licenceClass: 'A3', licenceUntil: addDays(today(), 100), rowVersion: d.rowVersion } });
    expect(stale.body.code).not.toBe(1);
    expect((await storedDriver(d.id)).name).toBe('李明');
    const newPhone = mobile();
    const r2 = await s.call(fleet.driverSave, { token: manager, body: { id: d.id, name: '李明', phone: newPhone, licenceClass: 'A3', licenceUntil: addDays(today(), 100) } });
    expect(r2.body.code, r2.body.msg).toBe(1);
    expect(pii.decrypt((await storedDriver(d.id)).phoneEnc)).toBe(newPhone);
    const foreign = await fixtureDriver(fx(), huangpu);
    expect((await s.call(fleet.driverSave, { token: manager, body: { id: foreign.id, name: '赵', licenceClass: 'A1', licenceUntil: addDays(today(), 100) } })).status).toBe(403);
  });

  it('finds by phone and id through the body form only; the export leaves them out', async () => {
    const phone = mobile();
    const idNo = citizenId();
    const d = await fixtureDriver(fx(), xuhui, { phone, idNo, name: '查找司机' });
    const byPhone = (await s.call(fleet.driverPageByBody, { token: manager, body: { phone: `${phone.slice(0, 3)}-${phone.slice(3)}` } })).body.data.content;
    expect(byPhone.map((x) => x.id)).toEqual([d.id]);
    const byId = (await s.call(fleet.driverPageByBody, { token: manager, body: { idNo: idNo.toLowerCase() } })).body.data.content;
    expect(byId.map((x) => x.id)).toEqual([d.id]);
    const total = (await s.call(fleet.driverTotalByBody, { token: manager, body: { phone } })).body.data;
    expect(total.total).toBe(1);
    expect(Object.keys((fleet.driverExport.query as unknown as { shape: object }).shape)).not.toContain('phone');
    // Another district's driver is not found by the manager.
    const foreignPhone = mobile();
    await fixtureDriver(fx(), huangpu, { phone: foreignPhone });
    expect((await s.call(fleet.driverPageByBody, { token: manager, body: { phone: foreignPhone } })).body.data.content).toHaveLength(0);
  });

  it('status moves, guarded; a driver with future classes cannot take leave (listed)', async () => {
    const d = await fixtureDriver(fx(), xuhui);
    const { line } = await fixtureLine(fx(), xuhui);
    const c = await fixtureClass(fx(), line, 1, { driverId: d.id });
    const r = await s.call(fleet.driverUpdateStatus, { token: manager, body: { id: d.id, fromStatus: 1, toStatus: 2 } });
    expect(r.body.msg).toContain(`司机${d.name}还有1个未发车班次`);
    expect(r.body.msg).toContain('请先改派司机后再改为「请假」');
    expect((await storedDriver(d.id)).status).toBe(1);
    await db().update(customClasses).set({ driverId: null }).where(eq(customClasses.id, c.id));
    const ok = await s.call(fleet.driverUpdateStatus, { token: manager, body: { id: d.id, fromStatus: 1, toStatus: 2, reason: '年假' } });
    expect(ok.body.data.status).toBe(2);
    expect(await audits('CUSTOM_DRIVER_STATUS', `customDriver/${d.id}`)).toHaveLength(1);
    for (const token of [viewer, agent]) expect((await s.call(fleet.driverUpdateStatus, { token, body: { id: d.id, fromStatus: 2, toStatus: 1 } })).status).toBe(403);
    expect((await storedDriver(d.id)).status).toBe(2);
  });

  it('reveal: needs a reason of 2+ characters, answers no-store in clear, audits the reason only; scoped and permissioned', async () => {
    const phone = mobile();
    const idNo = citizenId();
    const d = await fixtureDriver(fx(), xuhui, { phone, idNo });
    const short = await s.call(fleet.driverReveal, { token: manager, body: { id: d.id, reason: '查' } });
    expect(short.body.msg).toContain('原因至少2个字');
    expect((await s.call(fleet.driverReveal, { token: manager, body: { id: d.id } })).body.code).not.toBe(1);
    expect((await s.call(fleet.driverReveal, { token: manager, body: { id: d.id, reason: 'x'.repeat(101) } })).body.code).not.toBe(1);
    expect(await audits('CUSTOM_DRIVER_REVEAL', `customDriver/${d.id}`)).toHaveLength(0);
    const r = await s.call(fleet.driverReveal, { token: manager, body: { id: d.id, reason: '核对排班联系方式' } });
    expect(r.body.data).toEqual({ id: d.id, name: d.name, phone, idNo });
    expect(r.headers.get('cache-control')).toContain('no-store');
    const logs = await audits('CUSTOM_DRIVER_REVEAL', `customDriver/${d.id}`);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.summary).toContain('核对排班联系方式');
    expect(JSON.stringify(logs[0])).not.toContain(phone);
    for (const token of [viewer, agent]) expect((await s.call(fleet.driverReveal, { token, body: { id: d.id, reason: '核对信息' } })).status).toBe(403);
    const foreign = await fixtureDriver(fx(), huangpu);
    expect((await s.call(fleet.driverReveal, { token: manager, body: { id: foreign.id, reason: '核对信息' } })).status).toBe(403);
    expect(await audits('CUSTOM_DRIVER_REVEAL', `customDriver/${foreign.id}`)).toHaveLength(0);
  });

  it('the export is a task, masked: no clear phone or id in any cell', async () => {
    const phone = mobile();
    const idNo = citizenId();
    await fixtureDriver(fx(), xuhui, { phone, idNo, name: '导出司机' });
    const { sheet } = await exportThroughTask(s, fleet.driverExport, manager);
    const cells = sheet.rows.flat().map(String);
    expect(cells).toContain('导出司机');
    expect(cells).toContain(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    expect(cells.some((c) => /(?<!\d)1[3-9]\d{9}(?!\d)/.test(c) || /\d{17}[\dX]/.test(c))).toBe(false);
  });

  it('licence expiry: days left and the 30天内到期 filter', async () => {
    const soon = await fixtureDriver(fx(), xuhui, { licenceUntil: addDays(today(), 12) });
    const list = (await s.call(fleet.driverPageByBody, { token: manager, body: { expiring: 'true', size: 1000 } })).body.data.content;
    expect(list.find((x) => x.id === soon.id)!.licenceDays).toBe(12);
    expect(list.every((x) => x.licenceDays <= 30)).toBe(true);
  });
});

describe('queryById (the edit pages)', () => {
  it('answers the car and the driver (masked) in scope; another district’s is 403; unknown ids are refused', async () => {
    const car = await fixtureCar(fx(), xuhui);
    const phone = mobile();
    const d = await fixtureDriver(fx(), xuhui, { phone });
    expect((await s.call(fleet.carById, { token: manager, query: { id: car.id } })).body.data.plateNo).toBe(car.plateNo);
    const driver = (await s.call(fleet.driverById, { token: manager, query: { id: d.id } })).body.data;
    expect(driver.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    const foreignCar = await fixtureCar(fx(), huangpu);
    const foreignDriver = await fixtureDriver(fx(), huangpu);
    expect((await s.call(fleet.carById, { token: manager, query: { id: foreignCar.id } })).status).toBe(403);
    expect((await s.call(fleet.driverById, { token: manager, query: { id: foreignDriver.id } })).status).toBe(403);
    expect((await s.call(fleet.carById, { token: manager, query: { id: 99_999_999 } })).body.msg).toBe('车辆不存在');
    expect((await s.call(fleet.driverById, { token: viewer, query: { id: d.id } })).status).toBe(403);
  });
});

describe('fleetProblems (for scheduling)', () => {
  it('names each reason a car or a driver cannot take a class, in the design’s words', async () => {
    const day = addDays(today(), 5);
    const at = new Date(s.clock.now().getTime() + 5 * 86_400_000);
    const when = { departAt: at, arriveAt: new Date(at.getTime() + 3_600_000), departDate: day };
    const good = await fixtureCar(fx(), xuhui, { seats: 45 });
    const driver = await fixtureDriver(fx(), xuhui);
    expect(await fleetProblems(db(), { carId: good.id, driverId: driver.id, ...when, publish: 45 })).toEqual([]);
    expect(await fleetProblems(db(), { carId: good.id, driverId: null, ...when, publish: 46 })).toEqual(['发行数量不能超过车辆核载座位数（45）']);
    const repair = await fixtureCar(fx(), xuhui, { status: 2 });
    expect(await fleetProblems(db(), { carId: repair.id, driverId: null, ...when, publish: 10 })).toEqual(['车辆维修中，不能排班']);
    const off = await fixtureCar(fx(), xuhui, { status: 0 });
    expect(await fleetProblems(db(), { carId: off.id, driverId: null, ...when, publish: 10 })).toEqual(['车辆已停用，不能排班']);
    // Inspection runs out before the class's day.
    const lapsing = await fixtureCar(fx(), xuhui, { inspectionUntil: addDays(today(), 3) });
    expect(await fleetProblems(db(), { carId: lapsing.id, driverId: null, ...when, publish: 10 })).toEqual(['车辆年检已过期，不能排班']);
    const onLeave = await fixtureDriver(fx(), xuhui, { status: 2 });
    expect(await fleetProblems(db(), { carId: null, driverId: onLeave.id, ...when, publish: 10 })).toEqual(['司机请假中，不能排班']);
    const expired = await fixtureDriver(fx(), xuhui, { licenceUntil: addDays(today(), -1), status: 0 });
    expect(await fleetProblems(db(), { carId: null, driverId: expired.id, ...when, publish: 10 })).toEqual(['司机已停用，不能排班', '司机驾驶证已过期，不能排班']);
  });
});
