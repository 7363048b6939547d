import { screen, waitFor, within } from '@testing-library/react';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import * as cb from '../../src/server/modules/custom-bus/schema';
import { cellOf, distanceM } from '../../src/shared/custom/demand-grid';
import { addDays, shanghaiDate } from '../../src/shared/domain/time';
import { fixtureClass, fixtureLine, fixturePaidOrder } from '../support/custom-bus-fixture';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 定制汇总, 定制列表 and 定制记录 on the real server: what the screens show of real rows, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});
const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const f = () => ({ db: db(), pii, now: s.clock.now() });
const xuhuiId = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;

async function rowOf(table: string, text: string) {
  const main = await screen.findByRole('main');
  const tbl = await within(main).findByRole('table', { name: table }, { timeout: 8_000 });
  return waitFor(
    () => {
      const row = within(tbl)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 8_000 },
  );
}

/** A demand between two stops of 徐汇区, named for the test. */
async function demand(fromName: string, over: Partial<typeof cb.customDemands.$inferInsert> = {}) {
  const district = await xuhuiId();
  const stops = await db().select().from(t.stations).where(and(eq(t.stations.districtId, district), eq(t.stations.state, 1))).orderBy(asc(t.stations.id));
  const a = stops[0]!;
  const b = stops.filter((x) => distanceM(a, x) > 2500).at(-1) ?? stops.at(-1)!;
  const now = s.clock.now();
  const [row] = await db()
    .insert(cb.customDemands)
    .values({ districtId: district, fromName, fromLng: a.lng, fromLat: a.lat, toName: '客户端园区', toLng: b.lng, toLat: b.lat, goFrom: 7 * 3600, goTo: 8 * 3600, distanceM: distanceM(a, b), supporters: 35, threshold: 30, createdAt: now, updatedAt: now, ...over })
    .returning();
  return { row: row!, a, b, district };
}
const stored = async (id: number) => (await db().select().from(cb.customDemands).where(eq(cb.customDemands.id, id)))[0]!;

describe('定制汇总', () => {
  it('shows a line’s day with its load and the summary line over the filter', async () => {
    const { line } = await fixtureLine(f(), await xuhuiId(), { price: 1000, originalPrice: 1000, discountType: 1, discountPrice: null });
    const c = await fixtureClass(f(), line, 1, { publish: 10 });
    await fixturePaidOrder(f(), c, { seats: 4 });
    await signIn(s, 'manager');
    const day = addDays(shanghaiDate(s.clock.now()), 1);
    visit(s, `/customBus/summary?lineId=${line.id}&startDate=${day}&endDate=${day}`);
    renderWithUser(<App />);
    const row = await rowOf('定制线路日汇总', line.lineNo);
    expect(row.textContent).toContain(day);
    expect(row.textContent).toContain('40.0%');
    expect(row.textContent).toContain('40.00');
    const summary = await screen.findByLabelText('定制汇总合计');
    await waitFor(() => expect(summary.textContent).toMatch(/^1 条线路 1 天 · 班次 1 · 座位 10 · 售出 4 · 上座率 40\.0%/));
  });
});

describe('定制列表', () => {
  it('h opens 处理; 暂不开通 without a reply is refused in the dialog, with one it is stored', async () => {
    const { row: d } = await demand('客户端处理小区');
    await signIn(s, 'manager');
    visit(s, '/customBus/custom-list?name=客户端处理');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('定制需求列表', '客户端处理小区');
    expect(row.textContent).toContain('35/30');
    const summary = await screen.findByLabelText('定制需求统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 条需求 · 未开通 1/));
    row.focus();
    await user.keyboard('h');
    const dialog = await screen.findByRole('dialog', { name: /处理需求/ });
    await user.selectOptions(within(dialog).getByLabelText(/处理为/), '2');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('请填写暂不开通的原因')).toBeTruthy();
    expect((await stored(d.id)).state).toBe(0);
    await user.type(within(dialog).getByLabelText(/回复/), '沿线已有公交直达');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('定制需求「客户端处理小区→客户端园区」已暂不开通')).toBeTruthy();
    await waitFor(async () => expect(await stored(d.id)).toMatchObject({ state: 2, reply: '沿线已有公交直达' }));
  });

  it('★ g on a row opens 生成线路; it makes the draft line with its first week and marks the demand 已开通', async () => {
    const { row: d } = await demand('客户端成线小区');
    await signIn(s, 'manager');
    visit(s, '/customBus/custom-list?name=客户端成线');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('定制需求列表', '客户端成线小区');
    row.focus();
    await user.keyboard('g');
    const dialog = await screen.findByRole('dialog', { name: /生成线路/ });
    const no = within(dialog).getByLabelText(/线路编号/);
    await user.clear(no);
    await user.type(no, 'KH901');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(/已生成草稿线路 KH901「客户端成线小区-客户端园区」/, {}, { timeout: 8_000 })).toBeTruthy();
    const [line] = await db().select().from(cb.customLines).where(eq(cb.customLines.lineNo, 'KH901'));
    expect(line).toMatchObject({ status: 0, demandId: d.id, price: 1000, defaultSeats: 45 });
    expect((await db().select().from(cb.customClasses).where(eq(cb.customClasses.lineId, line!.id))).length).toBeGreaterThanOrEqual(4);
    await waitFor(async () => expect(await stored(d.id)).toMatchObject({ state: 1, lineId: line!.id }));
  });

  it('the heat view lists the clusters with 生成线路 each', async () => {
    const { a, b, district } = await demand('客户端热力小区');
    const riders = await db().select({ id: t.riders.id }).from(t.riders).limit(8);
    const now = s.clock.now();
    await db()
      .insert(cb.customDemandRecords)
      .values(riders.map((r, i) => ({ districtId: district, riderId: r.id, homeName: '客户端热力小区', homeEnc: pii.encrypt(`${a.lng},${a.lat}`), homeCell: cellOf(a.lng, a.lat), workName: '客户端园区', workEnc: pii.encrypt(`${b.lng},${b.lat}`), workCell: cellOf(b.lng, b.lat), goTime: 7 * 3600 + 60 * i, createdAt: now, updatedAt: now })));
    await signIn(s, 'manager');
    visit(s, '/customBus/custom-list');
    renderWithUser(<App />);
    const clusters = await screen.findByRole('list', { name: '需求聚类' }, { timeout: 8_000 });
    const item = await within(clusters).findByText(/客户端热力小区 → 客户端园区/);
    const li = item.closest('li')!;
    expect(li.textContent).toMatch(/\d+ 人 · 07:00–07:30/);
    expect(within(li).getByRole('button', { name: /生成线路/ })).toBeTruthy();
  });
});

describe('定制记录', () => {
  it('shows masked phones and the cells’ centres, never a rider’s point', async () => {
    const { row: d, a, b, district } = await demand('客户端记录小区');
    const [rider] = await db().select().from(t.riders).where(eq(t.riders.districtId, district)).limit(1);
    const now = s.clock.now();
    const home = { lng: a.lng + 0.00123, lat: a.lat + 0.00077 };
    await db()
      .insert(cb.customDemandRecords)
      .values({ districtId: district, demandId: d.id, riderId: rider!.id, homeName: '客户端记录小区', homeEnc: pii.encrypt(`${home.lng},${home.lat}`), homeCell: cellOf(home.lng, home.lat), workName: '客户端园区', workEnc: pii.encrypt(`${b.lng},${b.lat}`), workCell: cellOf(b.lng, b.lat), goTime: 7 * 3600 + 1500, status: 1, createdAt: now, updatedAt: now });
    await signIn(s, 'manager');
    visit(s, `/customBus/custom-record?demandId=${d.id}`);
    renderWithUser(<App />);
    const row = await rowOf('定制记录列表', '客户端记录小区');
    const phone = pii.decrypt(rider!.phoneEnc);
    expect(row.textContent).toContain(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
    expect(row.textContent).not.toContain(phone);
    expect(row.textContent).not.toContain(home.lng.toFixed(4));
    expect(row.textContent).toContain('07:25');
    const summary = await screen.findByLabelText('定制记录统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 条 · 1 位乘客/));
  });
});
