import { screen, waitFor, within } from '@testing-library/react';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { customClasses } from '../../src/server/modules/custom-bus/schema';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { type CustomFixture, fixtureCar, fixtureClass, fixtureDriver, fixtureLine } from '../support/custom-bus-fixture';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 班次管理 and 新增班次 on the real server: the list and its keys, the batch form's dry run and Ctrl+Enter, 排班. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const f = (): CustomFixture => ({ db: db(), pii: createPii(TEST_PII_KEY), now: s.clock.now() });
const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
const stored = async (id: number) => (await db().select().from(customClasses).where(eq(customClasses.id, id)))[0]!;
const today = () => shanghaiDate(s.clock.now());

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

function nextWeek() {
  const wd = new Date(`${today()}T00:00:00Z`).getUTCDay() || 7;
  const monday = addDays(today(), 8 - wd);
  return { dateFrom: monday, dateTo: addDays(monday, 4) };
}

describe('班次管理', () => {
  it('lists a line’s classes with the summary; s stops the sale, stored', async () => {
    const { line } = await fixtureLine(f(), await xuhui(), { name: '客户端停售线' });
    const c = await fixtureClass(f(), line, 2);
    await signIn(s, 'manager');
    visit(s, `/customBus/classes?lineId=${line.id}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf('班次列表', `${c.departDate} 07:30`);
    expect(within(row).getByText('售票中')).toBeTruthy();
    expect(row.textContent).toContain('未排车');
    const summary = await screen.findByLabelText('班次统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 个班次 · 售票中 1/));
    row.focus();
    await user.keyboard('s');
    expect(await screen.findByText(`班次「${line.name}」${c.departDate} 07:30已停售`)).toBeTruthy();
    await waitFor(async () => expect((await stored(c.id)).status).toBe(2));
  });

  it('a opens 排班: a car and a driver chosen, Ctrl+Enter stores them; a clash is told in the dialog', async () => {
    const area = await xuhui();
    const { line } = await fixtureLine(f(), area, { name: '客户端排班线' });
    const { line: other } = await fixtureLine(f(), area, { name: '客户端占用线' });
    const car = await fixtureCar(f(), area);
    const busy = await fixtureCar(f(), area);
    const driver = await fixtureDriver(f(), area, { name: '客户端司机' });
    const c = await fixtureClass(f(), line, 3);
    await fixtureClass(f(), other, 3, { departTime: 8 * 3600, carId: busy.id });
    await signIn(s, 'manager');
    visit(s, `/customBus/classes?lineId=${line.id}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf('班次列表', `${c.departDate} 07:30`);
    row.focus();
    await user.keyboard('a');
    const dialog = await screen.findByRole('dialog', { name: `排班 · ${line.name} ${c.departDate} 07:30` });
    const carSelect = await within(dialog).findByLabelText('车辆');
    await waitFor(() => expect(within(carSelect).getAllByRole('option').some((o) => o.textContent?.startsWith(busy.plateNo))).toBe(true));
    await user.selectOptions(carSelect, String(busy.id));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect((await within(dialog).findByRole('alert')).textContent).toContain(`车辆${busy.plateNo}在${c.departDate} 08:00已有班次（${other.name}），时间冲突`);
    expect((await stored(c.id)).carId).toBeNull();
    await user.selectOptions(carSelect, String(car.id));
    await user.selectOptions(within(dialog).getByLabelText('司机'), String(driver.id));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await stored(c.id)).toMatchObject({ carId: car.id, driverId: driver.id });
  });
});

describe('新增班次 (批量排班)', () => {
  it('filled in by the palette’s link, the dry run lists what it would make; Ctrl+Enter writes all 10', async () => {
    const { line } = await fixtureLine(f(), await xuhui(), { name: '客户端批量线' });
    const w = nextWeek();
    await signIn(s, 'manager');
    visit(s, `/customBus/add-classes?lineId=${line.id}&dateFrom=${w.dateFrom}&dateTo=${w.dateTo}&weekdays=1,2,3,4,5&times=07:30,08:00&publish=45&check=1`);
    const { user } = renderWithUser(<App />);
    const result = await screen.findByRole('region', { name: '检查结果' }, { timeout: 5_000 });
    expect(result.textContent).toContain('共 10 个班次，无冲突');
    expect(await db().select().from(customClasses).where(eq(customClasses.lineId, line.id))).toHaveLength(0);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(/已排班 10 个班次/)).toBeTruthy();
    const rows = await db().select().from(customClasses).where(eq(customClasses.lineId, line.id));
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.publish === 45)).toBe(true);
  });

  it('a taken slot is listed by the dry run and 确认排班 stays disabled; nothing is written', async () => {
    const { line } = await fixtureLine(f(), await xuhui(), { name: '客户端冲突线' });
    const w = nextWeek();
    const days = Math.round((Date.parse(`${w.dateFrom}T00:00:00Z`) - Date.parse(`${today()}T00:00:00Z`)) / 86_400_000);
    await fixtureClass(f(), line, days);
    await signIn(s, 'manager');
    visit(s, `/customBus/add-classes?lineId=${line.id}&dateFrom=${w.dateFrom}&dateTo=${w.dateTo}&weekdays=1,2,3,4,5&times=07:30&publish=40&check=1`);
    const { user } = renderWithUser(<App />);
    const result = await screen.findByRole('region', { name: '检查结果' }, { timeout: 5_000 });
    await waitFor(() => expect(result.textContent).toContain(`该线路${w.dateFrom} 07:30已有班次`));
    expect(result.textContent).toContain('其中 1 个有冲突');
    expect((screen.getByRole('button', { name: /确认排班/ }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await db().select().from(customClasses).where(eq(customClasses.lineId, line.id))).toHaveLength(1);
  });
});
