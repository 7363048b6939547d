import { screen, waitFor, within } from '@testing-library/react';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { activities, activityLimits } from '../../src/server/modules/activity/schema';
import { takeQueuedTask } from '../support/queued-task';
import { openPalette, listSettled, selectedText } from '../support/palette-client';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 活动管理 on the real server: what the screens show of real rows, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const DAY = 86_400_000;
const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;
const stored = async (id: number) => (await db().select().from(activities).where(eq(activities.id, id)))[0]!;

/** Running now in 徐汇区 (the manager's), stackable so it meets none of the seeded ones. */
async function running(name: string, over: Partial<typeof activities.$inferInsert> = {}) {
  const now = s.clock.now();
  const [row] = await db()
    .insert(activities)
    .values({ districtId: await xuhui(), name, type: 1, rule: { rate: 800 }, lineCodes: [], startAt: new Date(now.getTime() - DAY), endAt: new Date(now.getTime() + 30 * DAY), enabled: true, enabledAt: now, budgetFen: 500_000, priority: 1, stackable: true, createdAt: now, updatedAt: now, ...over })
    .returning();
  return row!;
}

async function rowOf(table: string, text: string) {
  const main = await screen.findByRole('main');
  const tb = await within(main).findByRole('table', { name: table }, { timeout: 5_000 });
  return waitFor(
    () => {
      const row = within(tb)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 5_000 },
  );
}

describe('the keyboard task: stop a runaway activity', () => {
  it('Ctrl+K, zthd, the activity by its pinyin, Enter: paused at once, the toast offers 撤销 for 10 s, which resumes it', async () => {
    const a = await running('失控测试活动');
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('zthd');
    await listSettled(dialog);
    await waitFor(() => expect(selectedText(dialog).startsWith('暂停活动')).toBe(true), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('combobox').getAttribute('placeholder')).toContain('选择进行中的活动'), { timeout: 5_000 });
    await user.keyboard('skcshd');
    await waitFor(() => expect(selectedText(dialog)).toContain('失控测试活动'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    const toastText = await screen.findByText('已暂停活动「失控测试活动」', {}, { timeout: 5_000 });
    await waitFor(async () => expect((await stored(a.id)).enabled).toBe(false));
    // The list shows the paused ones now.
    await waitFor(() => expect(window.location.search).toContain('status=2'));
    const log = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'ACTIVITY_PAUSE'), eq(t.sysLog.target, `activity/${a.id}`)));
    expect(log).toHaveLength(1);
    const toastBox = toastText.closest('[role="status"], [role="alert"], li, div')!;
    await user.click(within(toastBox as HTMLElement).getByRole('button', { name: /撤销/ }));
    expect(await screen.findByText(/已撤销：活动「失控测试活动」恢复/)).toBeTruthy();
    await waitFor(async () => expect((await stored(a.id)).enabled).toBe(true));
  });
});

describe('the keyboard task, record first: the activity’s name, then Alt+P', () => {
  it('finds the running activity by its name, shows its actions, pauses it on Alt+P with 撤销; a city-wide one offers no 暂停 from an area', async () => {
    const a = await running('记录优先测试活动');
    const city = await running('全市记录测试活动', { districtId: null });
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    let { dialog } = await openPalette(user);
    await user.keyboard('全市记录测试活动');
    await listSettled(dialog);
    await waitFor(() => expect(selectedText(dialog)).toContain('全市记录测试活动'), { timeout: 5_000 });
    expect(selectedText(dialog)).not.toContain('Alt+P');
    await user.keyboard('{Escape}');
    ({ dialog } = await openPalette(user));
    await user.keyboard('记录优先测试活动');
    await listSettled(dialog);
    await waitFor(() => expect(selectedText(dialog)).toContain('Alt+P 暂停'), { timeout: 5_000 });
    await user.keyboard('{Alt>}p{/Alt}');
    const toastText = await screen.findByText('已暂停活动「记录优先测试活动」', {}, { timeout: 5_000 });
    await waitFor(async () => expect((await stored(a.id)).enabled).toBe(false));
    expect((await stored(city.id)).enabled).toBe(true);
    const log = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'ACTIVITY_PAUSE'), eq(t.sysLog.target, `activity/${a.id}`)));
    expect(log).toHaveLength(1);
    const toastBox = toastText.closest('[role="status"], [role="alert"], li, div')!;
    await user.click(within(toastBox as HTMLElement).getByRole('button', { name: /撤销/ }));
    await waitFor(async () => expect((await stored(a.id)).enabled).toBe(true));
  });
});

describe('palette: 活动效果 ‹活动› ‹近N天›', () => {
  it('hdxg, the activity, 近7天: 活动列表 opens its effect over 7 days', async () => {
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('hdxg');
    await listSettled(dialog);
    await waitFor(() => expect(selectedText(dialog).startsWith('活动效果')).toBe(true), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('combobox').getAttribute('placeholder')).toContain('选择活动'), { timeout: 5_000 });
    await user.keyboard('工作日早高峰');
    await waitFor(() => expect(selectedText(dialog)).toContain('工作日早高峰8折'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('combobox').getAttribute('placeholder')).toContain('选择天数'), { timeout: 5_000 });
    await user.keyboard('7');
    await waitFor(() => expect(selectedText(dialog)).toContain('近7天'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    const effect = await screen.findByRole('dialog', { name: '活动效果 · 工作日早高峰8折' }, { timeout: 5_000 });
    const table = await within(effect).findByRole('table', { name: '活动效果每日明细' });
    expect(within(table).getAllByRole('row')).toHaveLength(8);
    expect(within(effect).getByRole('button', { name: '近7天' }).getAttribute('aria-pressed')).toBe('true');
  });
});

describe('活动列表', () => {
  it('lists the district’s activities with the summary line; p pauses the row at once and Ctrl+Z takes it back', async () => {
    const a = await running('客户端暂停测试');
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity?name=客户端暂停');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('活动列表', a.name);
    expect(within(row).getByText('进行中')).toBeTruthy();
    expect(within(row).getByText('8折')).toBeTruthy();
    const summary = await screen.findByLabelText('活动统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 个活动 · 进行中 1 · 未开始 0/));
    row.focus();
    await user.keyboard('p');
    expect(await screen.findByText(`已暂停活动「${a.name}」`)).toBeTruthy();
    await waitFor(async () => expect((await stored(a.id)).enabled).toBe(false));
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText(`已撤销：活动「${a.name}」恢复`)).toBeTruthy();
    await waitFor(async () => expect((await stored(a.id)).enabled).toBe(true));
  });

  it('a city-wide activity shows for the district (全市) with 查看, never 暂停', async () => {
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity?name=90分钟');
    renderWithUser(<App />);
    const row = await rowOf('活动列表', '90分钟换乘优惠');
    expect(within(row).getByText('全市')).toBeTruthy();
    await waitFor(() => expect(within(row).getByRole('button', { name: /^查看/ })).toBeTruthy());
    expect(within(row).queryByRole('button', { name: /^暂停/ })).toBeNull();
  });

  it('q asks before 结束 and ends it; an ended one offers no 恢复', async () => {
    const a = await running('客户端结束测试');
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity?name=客户端结束');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('活动列表', a.name);
    row.focus();
    await user.keyboard('q');
    const dialog = await screen.findByRole('dialog', { name: '结束活动' });
    expect(dialog.textContent).toContain('结束后不能重新启用');
    await user.click(within(dialog).getByRole('button', { name: '结束' }));
    expect(await screen.findByText(`已结束活动「${a.name}」`)).toBeTruthy();
    await waitFor(async () => expect((await stored(a.id)).endedAt).not.toBeNull());
    const after = await rowOf('活动列表', a.name);
    await waitFor(() => expect(within(after).getByText('已结束')).toBeTruthy());
    expect(within(after).queryByRole('button', { name: /恢复/ })).toBeNull();
  });

  it('新增活动: tiers that do not rise are refused in the design’s words; then stored in fen and ‰', async () => {
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: '新增活动' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: '新增活动' });
    await user.type(within(dialog).getByLabelText(/活动名称/), '客户端阶梯活动');
    await user.selectOptions(within(dialog).getByLabelText(/活动类型/), '2');
    const second = within(dialog).getByLabelText('第2级 满（元）');
    await user.clear(second);
    await user.type(second, '40');
    await user.type(within(dialog).getByLabelText(/预算/), '1234.5');
    await user.click(within(dialog).getByLabelText('可与其他活动叠加'));
    await user.click(within(dialog).getByRole('button', { name: /^保存/ }));
    expect(await within(dialog).findByText('阶梯金额须递增且折扣须逐级加大')).toBeTruthy();
    expect(await db().select().from(activities).where(eq(activities.name, '客户端阶梯活动'))).toHaveLength(0);
    await user.clear(second);
    await user.type(second, '100');
    await user.click(within(dialog).getByRole('button', { name: /^保存/ }));
    expect(await screen.findByText('已新增活动「客户端阶梯活动」')).toBeTruthy();
    const [saved] = await db().select().from(activities).where(eq(activities.name, '客户端阶梯活动'));
    expect(saved).toMatchObject({ type: 2, budgetFen: 123_450, stackable: true, enabled: true, districtId: await xuhui() });
    expect(saved!.rule).toEqual({ tiers: [{ fromFen: 5000, rate: 900 }, { fromFen: 10000, rate: 700 }] });
  });

  it('s rehearses the activity over the last 30 days (riders, cost, the chart’s table); v shows its effect per day', async () => {
    const [morning] = await db().select().from(activities).where(eq(activities.name, '工作日早高峰8折'));
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity?name=工作日早高峰');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('活动列表', morning!.name);
    row.focus();
    await user.keyboard('s');
    const sim = await screen.findByRole('dialog', { name: `活动预演 · ${morning!.name}` });
    expect(await within(sim).findByText('覆盖乘客', {}, { timeout: 10_000 })).toBeTruthy();
    const days = within(sim).getByRole('table', { name: '预演每日成本' });
    expect(within(days).getAllByRole('row')).toHaveLength(31);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    row.focus();
    await user.keyboard('v');
    const effect = await screen.findByRole('dialog', { name: `活动效果 · ${morning!.name}` }, { timeout: 5_000 });
    const table = await within(effect).findByRole('table', { name: '活动效果每日明细' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    await user.click(within(effect).getByRole('button', { name: '近7天' }));
    await waitFor(() => expect(within(within(effect).getByRole('table', { name: '活动效果每日明细' })).getAllByRole('row')).toHaveLength(8));
    await user.click(within(effect).getByRole('button', { name: '导出 Excel' }));
    const task = await takeQueuedTask(db(), 'acitivity.effect');
    expect(task).toEqual(expect.objectContaining({ title: `活动效果 ${morning!.name} 近7天` }));
  });
});

describe('活动列表: export and the draft’s 预演', () => {
  it('导出 Excel queues a task of the filtered activities, under the manager’s district', async () => {
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity?status=3');
    const { user } = renderWithUser(<App />);
    await rowOf('活动列表', '老年卡月累计阶梯');
    await user.click(screen.getByRole('button', { name: '导出 Excel' }));
    const task = await takeQueuedTask(db(), 'acitivity.activities');
    expect(task).toEqual(expect.objectContaining({ title: '活动 已结束', districtScope: await xuhui(), params: expect.objectContaining({ status: 3 }) }));
  });

  it('the form’s 预演 runs the draft over the last 30 days before anything is saved', async () => {
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: '新增活动' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: '新增活动' });
    await user.type(within(dialog).getByLabelText(/活动名称/), '客户端预演草稿');
    await user.type(within(dialog).getByLabelText(/预算/), '1');
    // Below 工作日早高峰8折 (priority 10, every line of 徐汇区) it would take no ride: it goes above.
    const priority = within(dialog).getByLabelText(/优先级/);
    await user.clear(priority);
    await user.type(priority, '99');
    await user.click(within(dialog).getByRole('button', { name: '预演（近30天）' }));
    const sim = await screen.findByRole('dialog', { name: '活动预演 · 客户端预演草稿' }, { timeout: 5_000 });
    expect(await within(sim).findByText('覆盖乘客', {}, { timeout: 10_000 })).toBeTruthy();
    expect(within(sim).getByText(/第 1 天即超出预算/)).toBeTruthy();
    const overlap = within(sim).getByRole('table', { name: '与进行中活动的重叠' });
    expect(within(overlap).getByText('工作日早高峰8折')).toBeTruthy();
    expect(await db().select().from(activities).where(eq(activities.name, '客户端预演草稿'))).toHaveLength(0);
  });
});

describe('优惠限制 and 操作记录', () => {
  it('lists the limits with the summary; 新增限制 stores one in fen', async () => {
    await signIn(s, 'manager');
    visit(s, '/acitivity/discount-limit');
    const { user } = renderWithUser(<App />);
    const summary = await screen.findByLabelText('优惠限制统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 \d+ 条限制/));
    const before = (await db().select().from(activityLimits)).length;
    await user.click(screen.getByRole('button', { name: '新增限制' }));
    const dialog = await screen.findByRole('dialog', { name: '新增优惠限制' });
    await user.selectOptions(within(dialog).getByLabelText('周期'), 'month');
    const fen = within(dialog).getByLabelText(/金额上限/);
    await user.clear(fen);
    await user.type(fen, '30.5');
    await user.click(within(dialog).getByRole('button', { name: /^保存/ }));
    expect(await screen.findByText('已新增优惠限制')).toBeTruthy();
    const all = await db().select().from(activityLimits).orderBy(asc(activityLimits.id));
    expect(all).toHaveLength(before + 1);
    expect(all.at(-1)).toMatchObject({ dimension: 'card', period: 'month', maxTimes: 0, maxFen: 3050, activityId: null, districtId: await xuhui() });
  });

  it('操作记录 of one activity (its row’s l): who, the action, the diff and the reason', async () => {
    const a = await running('客户端记录测试');
    await signIn(s, 'manager');
    visit(s, '/acitivity/activity?name=客户端记录');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('活动列表', a.name);
    row.focus();
    await user.keyboard('p');
    await screen.findByText(`已暂停活动「${a.name}」`);
    row.focus();
    await user.keyboard('l');
    await waitFor(() => expect(window.location.pathname).toBe('/acitivity/operate-record'));
    const rec = await rowOf('操作记录', `暂停活动「${a.name}」`);
    expect(within(rec).getByText('manager')).toBeTruthy();
    expect(within(rec).getByText('暂停活动')).toBeTruthy();
    expect(rec.textContent).toMatch(/状态：进行中\s*→?\s*改为已暂停/);
  });
});
