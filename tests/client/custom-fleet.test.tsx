import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { customCars, customDrivers } from '../../src/server/modules/custom-bus/schema';
import { createPii } from '../../src/server/lib/pii';
import { citizenCheckChar } from '../../src/shared/domain/citizen-id';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureDriver, fixtureLine } from '../support/custom-bus-fixture';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { openPalette } from '../support/palette-client';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 车辆管理与司机管理 on the real server: what the screens show of real rows, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const fx = (): CustomFixture => ({ db: db(), pii, now: s.clock.now() });
const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
const today = () => shanghaiDate(s.clock.now());
const storedCar = async (id: number) => (await db().select().from(customCars).where(eq(customCars.id, id)))[0]!;

async function rowOf(table: string, text: string) {
  const main = await screen.findByRole('main');
  const tbl = await within(main).findByRole('table', { name: table }, { timeout: 5_000 });
  return waitFor(
    () => {
      const row = within(tbl)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 5_000 },
  );
}

describe('车辆管理', () => {
  it('shows the expiry badges and the summary line; m asks and 维修 is stored', async () => {
    const car = await fixtureCar(fx(), await xuhui(), { plateNo: '沪F90001', inspectionUntil: addDays(today(), 7), insuranceUntil: addDays(today(), -2) });
    await signIn(s, 'manager');
    visit(s, '/customBus/car?plateNo=沪F90001');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('车辆列表', car.plateNo);
    expect(within(row).getByText('7天后到期')).toBeTruthy();
    expect(within(row).getByText('已过期')).toBeTruthy();
    expect(within(row).getByText('可用')).toBeTruthy();
    const summary = await screen.findByLabelText('车辆统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 辆 · 可用 1（49 座）· 维修 0 · 停用 0 · 30天内到期 0 · 已过期 1/));
    row.focus();
    await user.keyboard('m');
    const dialog = await screen.findByRole('dialog', { name: '车辆维修' });
    expect(dialog.textContent).toContain(car.plateNo);
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`车辆${car.plateNo}已改为维修`)).toBeTruthy();
    expect((await storedCar(car.id)).status).toBe(2);
  });

  it('a car with a class ahead: 停用 is refused with the class named, and nothing is stored', async () => {
    const district = await xuhui();
    const car = await fixtureCar(fx(), district, { plateNo: '沪F90002' });
    const { line } = await fixtureLine(fx(), district);
    await fixtureClass(fx(), line, 2, { carId: car.id });
    await signIn(s, 'manager');
    visit(s, '/customBus/car?plateNo=沪F90002');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('车辆列表', car.plateNo);
    row.focus();
    await user.keyboard('d');
    const dialog = await screen.findByRole('dialog', { name: '停用车辆' });
    expect(dialog.textContent).toContain('还有 1 个未发车班次');
    // A dangerous step starts on 取消: Ctrl+Enter confirms.
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect((await screen.findAllByText(new RegExp(`车辆${car.plateNo}还有1个未发车班次（${line.lineNo} `), {}, { timeout: 5_000 })).length).toBeGreaterThan(0);
    expect((await storedCar(car.id)).status).toBe(1);
  });
});

describe('车辆维修 ‹车牌› from the palette', () => {
  it('choosing the car is the move: 维修 is stored and the list shows it', async () => {
    const car = await fixtureCar(fx(), await xuhui(), { plateNo: '沪F90004' });
    await signIn(s, 'manager');
    visit(s, '/customBus/driver');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('车辆维修');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('车辆维修'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).queryByRole('group', { name: '选择可用车辆' })).not.toBeNull(), { timeout: 5_000 });
    await user.keyboard('沪F90004');
    const options = () => within(within(dialog).getByRole('group', { name: '选择可用车辆' })).queryAllByRole('option');
    // The typed plate ranks its car first (the seeded cars of the area may match a part of it too).
    await waitFor(() => expect(options()[0]?.textContent).toContain('沪F90004'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    expect(await screen.findByText(`车辆${car.plateNo}已改为维修`)).toBeTruthy();
    expect((await storedCar(car.id)).status).toBe(2);
    const row = await rowOf('车辆列表', car.plateNo);
    expect(within(row).getByText('维修')).toBeTruthy();
  });
});

describe('新增车辆', () => {
  it('refuses a malformed plate in Chinese, then saves (upper-cased) with Ctrl+S', async () => {
    await signIn(s, 'manager');
    visit(s, '/customBus/add-car');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '车辆' }, { timeout: 5_000 });
    const plate = within(form).getByLabelText(/车牌号/);
    await user.type(plate, '沪I1234');
    await user.keyboard('{Control>}s{/Control}');
    expect(await within(form).findByText(/车牌号格式不正确/)).toBeTruthy();
    await user.clear(plate);
    await user.type(plate, '沪f90003');
    await user.type(within(form).getByLabelText(/车型/), '客户端车型');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已新增车辆 沪F90003')).toBeTruthy();
    const [saved] = await db().select().from(customCars).where(eq(customCars.plateNo, '沪F90003'));
    expect(saved).toMatchObject({ seats: 49, model: '客户端车型', status: 1, districtId: await xuhui() });
  });
});

describe('司机管理', () => {
  it('masks the numbers; 查看号码 asks a reason (too short refused), then shows them and logs the reason', async () => {
    const phone = '13912345601';
    const first17 = '31010419850101123';
    const idNo = first17 + citizenCheckChar(first17);
    const d = await fixtureDriver(fx(), await xuhui(), { name: '客户端司机', phone, idNo, licenceUntil: addDays(today(), 20) });
    await signIn(s, 'manager');
    visit(s, '/customBus/driver?name=客户端司机');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('司机列表', '客户端司机');
    expect(row.textContent).toContain('139****5601');
    expect(row.textContent).not.toContain(phone);
    expect(row.textContent).not.toContain(idNo);
    expect(within(row).getByText('20天后到期')).toBeTruthy();
    row.focus();
    await user.keyboard('v');
    const dialog = await screen.findByRole('dialog', { name: /查看司机信息/ });
    await user.type(within(dialog).getByLabelText(/查看原因/), '查');
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText(/原因至少2个字/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/查看原因/), '看排班联系方式');
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText(phone)).toBeTruthy();
    expect(within(dialog).getByText(idNo)).toBeTruthy();
    const logs = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CUSTOM_DRIVER_REVEAL'), eq(t.sysLog.target, `customDriver/${d.id}`)));
    expect(logs).toHaveLength(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(phone)).toBeNull();
  });

  it('查司机 ‹手机号› from the palette: the phone reaches the list in memory, never the address', async () => {
    const phone = '13912345602';
    await fixtureDriver(fx(), await xuhui(), { name: '面板司机', phone });
    await signIn(s, 'manager');
    visit(s, '/customBus/car');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('查司机');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('查司机'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(phone);
    await user.keyboard('{Enter}');
    const row = await rowOf('司机列表', '面板司机');
    expect(row.textContent).toContain('139****5602');
    expect(window.location.pathname).toBe('/customBus/driver');
    expect(window.location.search).not.toContain(phone);
  });
});

describe('新增司机', () => {
  it('refuses a wrong citizen id in Chinese, then saves the driver sealed', async () => {
    await signIn(s, 'manager');
    visit(s, '/customBus/add-driver');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '司机' }, { timeout: 5_000 });
    const first17 = '31010419900202456';
    const good = first17 + citizenCheckChar(first17);
    const bad = first17 + (good.endsWith('1') ? '2' : '1');
    await user.type(within(form).getByLabelText(/姓名/), '新增客户端司机');
    await user.type(within(form).getByLabelText(/手机号/), '13912345603');
    const id = within(form).getByLabelText(/身份证号/);
    await user.type(id, bad);
    await user.keyboard('{Control>}s{/Control}');
    expect(await within(form).findByText('身份证号不正确')).toBeTruthy();
    await user.clear(id);
    await user.type(id, good);
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已新增司机 新增客户端司机')).toBeTruthy();
    const [saved] = await db().select().from(customDrivers).where(eq(customDrivers.name, '新增客户端司机'));
    expect(pii.decrypt(saved!.idEnc)).toBe(good);
    expect(saved!.idIdx).toBe(pii.index('citizen', good));
  });
});
