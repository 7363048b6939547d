import { screen, waitFor, within } from '@testing-library/react';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { placeholderImage } from '../../src/server/lib/sealed-files';
import { type NewFeedback, submitFeedback } from '../../src/server/modules/notice-report/feedback-service';
import { feedback } from '../../src/server/modules/notice-report/schema';
import { DAY, MINUTE } from '../support/clock';
import { openPalette, selectedText } from '../support/palette-client';
import { takeQueuedTask } from '../support/queued-task';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 意见反馈 on the real server: the triage queue by keyboard, the cluster answered once, row keys, images with a reason, export. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const deps = () => ({ db: s.database.db, clock: s.clock, pii: createPii(TEST_PII_KEY) }) as unknown as AppDeps;
const stored = async (id: number) => (await db().select().from(feedback).where(eq(feedback.id, id)))[0]!;

let seq = 0;
/** A 徐汇区 rider's item (the agent's and manager's district); `lead`: due long ago, so it heads the queue in this order. */
async function make(over: Partial<NewFeedback> = {}, lead?: number) {
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const [rider] = await db().select().from(t.riders).where(eq(t.riders.districtId, xuhui!.id)).limit(1);
  const id = await submitFeedback(deps(), { riderId: rider!.id, category: 2, content: `客户端反馈${++seq}：司机急刹车`, ...over });
  if (lead !== undefined) await db().update(feedback).set({ dueAt: new Date(s.clock.now().getTime() - (100 - lead) * DAY) }).where(eq(feedback.id, id));
  return id;
}

// The file's first render transforms the screen's modules on demand: seconds on a loaded machine.
const WAIT = { timeout: 15_000 };
async function table(name: string) {
  const main = await screen.findByRole('main', {}, WAIT);
  return within(main).findByRole('table', { name }, WAIT);
}
async function rowOf(name: string, text: string) {
  const tb = await table(name);
  return waitFor(
    () => {
      const row = within(tb)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 8_000 },
  );
}

describe('意见反馈', () => {
  it('opens on the triage queue (未处理, soonest due first) with the summary line and the overdue badge', async () => {
    // Its own open items in the agent's area: which area the seed's few open ones fall in follows the
    // demo rides, which follow the hour the seed ran.
    await make({ content: '分诊队列：按期的一条' });
    await make({ content: '分诊队列：超时的一条' }, 50);
    await signIn(s, 'agent');
    visit(s, '/noticeReport/feedback');
    renderWithUser(<App />);
    const tb = await table('待处理反馈队列');
    await waitFor(() => expect(window.location.search).toContain('status=0'), WAIT);
    expect(window.location.search).toContain('sort=dueAt%2Casc');
    await waitFor(() => expect(within(tb).getAllByText('未处理').length).toBeGreaterThan(0), WAIT);
    const rows = within(tb).getAllByRole('row').slice(1);
    expect(rows.every((r) => !r.textContent?.includes('已处理'))).toBe(true);
    const summary = await screen.findByLabelText('意见反馈统计', {}, WAIT);
    await waitFor(() => expect(summary.textContent).toMatch(/^共 \d+ 条 · 未处理 \d+ · 处理中 \d+ · 已处理 \d+ · 不处理 \d+ · 超时 \d+ · 回复用时中位数 ([\d.]+ 小时|—)$/), WAIT);
  });

  it('the keyboard task: Enter opens the head item with its cluster, the reply typed, Ctrl+Enter answers it and its cluster and opens the next; Esc leaves', async () => {
    const at = new Date(s.clock.now().getTime() - 2 * 60 * MINUTE);
    const bus = `沪B-K${at.getTime() % 100000}`;
    const a = await make({ lineCode: '71', busNo: bus, occurredAt: at, content: '客户端分诊一：车上空调不制冷' }, 1);
    const b = await make({ lineCode: '71', busNo: bus, occurredAt: new Date(at.getTime() + 15 * MINUTE), content: '客户端分诊二：空调坏了' }, 2);
    const c = await make({ content: '客户端分诊三：司机态度差' }, 3);
    await signIn(s, 'agent');
    visit(s, '/noticeReport/feedback?status=0&sort=dueAt,asc');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('待处理反馈队列', `#${a}`);
    expect(row.textContent).toContain('同车同时段 2 条');
    expect(row.textContent).toContain('超时');
    row.focus();
    await user.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: new RegExp(`意见反馈#${a}`) });
    const cluster = await within(drawer).findByRole('region', { name: '同车同时段' }, { timeout: 5_000 });
    expect(cluster.textContent).toContain(`#${b}`);
    expect((within(cluster).getByLabelText(`一并回复 #${b}`) as HTMLInputElement).checked).toBe(true);
    expect(within(drawer).getByRole('region', { name: '反馈内容' }).textContent).toContain('空调不制冷');
    const reply = within(drawer).getByLabelText(/回复内容/);
    await waitFor(() => expect(document.activeElement).toBe(reply));
    await user.type(reply, '您好，该车空调已安排检修。');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect((await stored(a)).status).toBe(1), { timeout: 5_000 });
    expect(await stored(a)).toMatchObject({ reply: '您好，该车空调已安排检修。' });
    expect(await stored(b)).toMatchObject({ status: 1, reply: '您好，该车空调已安排检修。' });
    expect(await screen.findByText(`已回复意见反馈#${a}，同车同时段另 1 条一并回复`)).toBeTruthy();
    // The cluster's other item is answered: the next one to open is the third.
    const next = await screen.findByRole('dialog', { name: new RegExp(`意见反馈#${c}`) }, { timeout: 5_000 });
    expect(within(next).getByRole('region', { name: '反馈内容' }).textContent).toContain('司机态度差');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await stored(c)).status).toBe(0);
  });

  it('row keys: c claims, n asks the reason (refused under 4 characters) and declines; the server stored each', async () => {
    const claim = await make({ content: '客户端认领测试' });
    const decline = await make({ content: '客户端不处理测试' });
    await signIn(s, 'agent');
    visit(s, '/noticeReport/feedback?status=0&sort=createdDate,desc');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('待处理反馈队列', '客户端认领测试');
    expect(within(row).getByRole('button', { name: new RegExp(`认领 意见反馈#${claim}`) }).getAttribute('aria-keyshortcuts')).toBe('c');
    row.focus();
    await user.keyboard('c');
    expect(await screen.findByText(`已认领意见反馈#${claim}`)).toBeTruthy();
    await waitFor(async () => expect(await stored(claim)).toMatchObject({ status: 3 }), { timeout: 5_000 });
    const other = await rowOf('待处理反馈队列', '客户端不处理测试');
    other.focus();
    await user.keyboard('n');
    const dialog = await screen.findByRole('dialog', { name: `不处理 · 意见反馈#${decline}` });
    await user.type(within(dialog).getByLabelText(/不处理原因/), '无关');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('请填写不处理原因（至少4个字）')).toBeTruthy();
    expect((await stored(decline)).status).toBe(0);
    await user.type(within(dialog).getByLabelText(/不处理原因/), '，与公交服务无关');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect(await stored(decline)).toMatchObject({ status: 2, closeReason: '无关，与公交服务无关' }), { timeout: 5_000 });
  });

  it('o reopens an answered item for an administrator (asked first); the server stored it', async () => {
    const id = await make({ content: '客户端重新打开测试' });
    await db().update(feedback).set({ status: 1, reply: '已回复', repliedAt: s.clock.now(), handlerId: (await db().select().from(t.users).where(eq(t.users.login, 'agent')))[0]!.id }).where(eq(feedback.id, id));
    await signIn(s, 'manager');
    visit(s, '/noticeReport/feedback?status=1&sort=createdDate,desc');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('意见反馈列表', '客户端重新打开测试');
    row.focus();
    await user.keyboard('o');
    const confirm = await screen.findByRole('dialog', { name: '重新打开' });
    expect(confirm.textContent).toContain(`意见反馈#${id}`);
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await stored(id)).toMatchObject({ status: 3, reply: null }), { timeout: 5_000 });
  });

  it('处理反馈 ‹编号› lands with the item open; an image opens only with a reason, the phone too', async () => {
    const id = await make({ content: '客户端图片测试', contactPhone: '13955556666', images: [{ label: '车内照片', ...placeholderImage('车内照片', 120, 80) }] });
    await signIn(s, 'agent');
    visit(s, `/noticeReport/feedback?action=open&id=${id}&status=0&sort=dueAt,asc`);
    const { user } = renderWithUser(<App />);
    const drawer = await screen.findByRole('dialog', { name: new RegExp(`意见反馈#${id}`) }, { timeout: 8_000 });
    const material = await within(drawer).findByRole('region', { name: '图片与联系电话' }, { timeout: 5_000 });
    await user.click(within(material).getByRole('button', { name: '查看车内照片' }));
    expect(await screen.findByText('请先填写查看原因（至少4个字）')).toBeTruthy();
    expect(within(material).queryByRole('img')).toBeNull();
    await user.type(within(material).getByLabelText('查看原因'), '核实车内情况');
    await user.click(within(material).getByRole('button', { name: '查看车内照片' }));
    const img = await within(material).findByRole('img', { name: '车内照片' }, { timeout: 5_000 });
    expect(img.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    await user.click(within(material).getByRole('button', { name: /查看联系电话/ }));
    expect(await within(material).findByRole('button', { name: '查看联系电话 13955556666' }, { timeout: 5_000 })).toBeTruthy();
    const log = await db().select().from(t.sysLog).where(inArray(t.sysLog.operationType, ['FEEDBACK_MATERIAL']));
    expect(log.filter((l) => l.target === `feedback/${id}`)).toHaveLength(2);
  });

  it('the palette: 超时反馈 (by pinyin) lists only the overdue ones, soonest due first; g y opens the triage queue', async () => {
    const late = await make({ content: '客户端超时测试' }, 50);
    await signIn(s, 'agent');
    visit(s, '/noticeReport/notice');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('>chaoshi');
    await waitFor(() => expect(selectedText(dialog)).toContain('超时反馈'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/noticeReport/feedback'));
    expect(window.location.search).toContain('overdue=true');
    const tb = await table('意见反馈列表');
    await rowOf('意见反馈列表', `#${late}`);
    expect(within(tb).getAllByRole('row').slice(1).every((r) => r.textContent?.includes('超时'))).toBe(true);
    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('gy');
    await waitFor(() => expect(window.location.search).toContain('status=0'), { timeout: 5_000 });
    const queue = await table('待处理反馈队列');
    // The item due first opens at once, its reply field focused.
    const head = within(queue).getAllByRole('row')[1]!.textContent?.match(/#(\d+)/)?.[1];
    const drawer = await screen.findByRole('dialog', { name: new RegExp(`意见反馈#${head}`) }, WAIT);
    await waitFor(() => expect(document.activeElement).toBe(within(drawer).getByLabelText(/回复内容/)), WAIT);
  });

  it('导出 Excel queues a 下载中心 task with the list’s filters', async () => {
    await signIn(s, 'manager');
    visit(s, '/noticeReport/feedback?status=1&category=2');
    const { user } = renderWithUser(<App />);
    await table('意见反馈列表');
    await user.click(await screen.findByRole('button', { name: /导出 Excel/ }));
    const task = await takeQueuedTask(db(), 'noticeReport.feedback');
    expect(task.params).toMatchObject({ status: 1, category: 2 });
  });
});
