import { screen, waitFor, within } from '@testing-library/react';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { PRESET_REASONS } from '../../src/shared/api/card-verify';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { submitApplication } from '../../src/server/modules/card-verify/rider-side';
import { cardVerifyApplications as apps, cardVerifyConfigs } from '../../src/server/modules/card-verify/schema';
import { DAY } from '../support/clock';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 验卡记录 and 验卡配置 on the real server: the list and its summary, the keyboard review queue, ★ 到期雷达, the configuration form. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const stored = async (id: number) => (await db().select().from(apps).where(eq(apps.id, id)))[0]!;

/** Applications of the test's own in 徐汇区 (the agent's and the manager's), the oldest in the queue. */
async function submitOld(n: number, faceScore = 95) {
  const pii = createPii(s.config.piiKey!);
  const deps = { db: db(), clock: s.clock, pii } as unknown as AppDeps;
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const used = new Set((await db().select({ cardId: apps.cardId }).from(apps)).map((r) => r.cardId));
  const cards = (
    await db()
      .select({ id: t.busCards.id, cardNo: t.busCards.cardNo, citizenEnc: t.riders.citizenEnc })
      .from(t.busCards)
      .innerJoin(t.riders, eq(t.riders.id, t.busCards.riderId))
      .where(and(eq(t.busCards.districtId, xuhui!.id), inArray(t.busCards.category, [4, 5]), eq(t.busCards.state, 1), sql`${t.riders.citizenEnc} is not null`))
  ).filter((c) => !used.has(c.id));
  const made = [];
  for (let i = 0; i < n; i++) {
    const c = cards[i]!;
    const a = await submitApplication(deps, { cardNo: c.cardNo, name: '王小明', idNo: pii.decrypt(c.citizenEnc!), phone: '13911119999', faceScore, guardianConsent: true, at: new Date(s.clock.now().getTime() - (400 - i) * DAY) });
    made.push(a);
  }
  return made;
}

describe('验卡记录', () => {
  it('lists the applications with the summary line, masked', async () => {
    await signIn(s, 'admin');
    visit(s, '/cardVerify/card-verify-list');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const tb = await within(main).findByRole('table', { name: '验卡记录列表' }, { timeout: 8_000 });
    await waitFor(() => expect(within(tb).getAllByText('待审核').length).toBeGreaterThan(0), { timeout: 8_000 });
    const summary = await screen.findByLabelText('验卡统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 \d+ 条 · 待审核 \d+（审核中 \d+，我认领 \d+，自动核验全部通过 \d+） · 已通过 \d+ · 已驳回 \d+ · 已撤销 \d+ · 今日已审 \d+/));
    expect(tb.textContent).not.toMatch(/(?<![\dA-Za-z])1[3-9]\d{9}(?!\d)/);
  });

  it('the keyboard queue: Enter takes the oldest, 2 switches the material, a + Ctrl+Enter approves and takes the next, r 1 Ctrl+Enter rejects with the first preset reason, Esc leaves', async () => {
    const [first, second] = await submitOld(2);
    await signIn(s, 'agent');
    visit(s, '/cardVerify/card-verify-list?action=next');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', {}, { timeout: 8_000 });
    await within(dialog).findByText(/按 Enter 领取下一条待审核申请/);
    await user.keyboard('{Enter}');
    await within(dialog).findByText(`验卡申请 ${first!.applyNo}`, {}, { timeout: 8_000 });
    expect((await stored(first!.id)).claimBy).not.toBeNull();
    // The materials, opened through the audited call, and the checks list.
    await within(dialog).findByRole('img', { name: '身份证人像面' }, { timeout: 8_000 });
    expect(within(dialog).getByRole('list', { name: '自动核验' }).textContent).toMatch(/身份证号校验.*年龄条件.*卡片状态.*持卡人一致.*人脸比对/);
    await user.keyboard('2');
    await waitFor(() => expect(within(dialog).getByRole('tab', { name: /2\s*身份证国徽面/ }).getAttribute('aria-selected')).toBe('true'));
    await user.keyboard('a');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect((await stored(first!.id)).status).toBe(1), { timeout: 8_000 });
    // The next one is taken at once.
    await within(dialog).findByText(`验卡申请 ${second!.applyNo}`, {}, { timeout: 8_000 });
    await user.keyboard('r');
    await user.keyboard('1');
    await waitFor(() => expect((within(dialog).getByLabelText('驳回原因') as HTMLTextAreaElement).value).toBe(PRESET_REASONS[0]));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect(await stored(second!.id)).toMatchObject({ status: 2, reason: PRESET_REASONS[0] }), { timeout: 8_000 });
    const logged = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CARD_VERIFY_MATERIAL'), eq(t.sysLog.target, `card-verify/${first!.id}`)));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    await waitFor(() => expect(within(dialog).queryByText(`验卡申请 ${second!.applyNo}`)).toBeNull(), { timeout: 8_000 });
    await waitFor(() => expect(within(dialog).queryByText('正在领取下一条…')).toBeNull(), { timeout: 8_000 });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')?.textContent ?? null).toBeNull());
  });

  it('a failed face match asks for the note before approving', async () => {
    const [low] = await submitOld(1, 55);
    await signIn(s, 'agent');
    visit(s, '/cardVerify/card-verify-list?action=next');
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', {}, { timeout: 8_000 });
    await within(dialog).findByText(/按 Enter 领取下一条待审核申请/);
    await user.keyboard('{Enter}');
    await within(dialog).findByText(`验卡申请 ${low!.applyNo}`, {}, { timeout: 8_000 });
    await user.keyboard('a');
    const note = await within(dialog).findByLabelText('人工核验说明');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/请填写人工核验说明（至少10个字）/);
    await user.type(note, '已电话联系本人，照片光线不足');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect(await stored(low!.id)).toMatchObject({ status: 1, note: '已电话联系本人，照片光线不足' }), { timeout: 8_000 });
  });

  it('an application another reviewer holds says who; ROLE_ADMIN takes it over with t and decides', async () => {
    const [held] = await submitOld(1);
    const [agent] = await db().select().from(t.users).where(eq(t.users.login, 'agent'));
    await db().update(apps).set({ claimBy: agent!.id, claimUntil: new Date(s.clock.now().getTime() + 5 * 60_000) }).where(eq(apps.id, held!.id));
    await signIn(s, 'manager');
    visit(s, `/cardVerify/card-verify-list?applyNo=${held!.applyNo}`);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const tb = await within(main).findByRole('table', { name: '验卡记录列表' }, { timeout: 8_000 });
    const row = await waitFor(
      () => {
        const found = within(tb)
          .getAllByRole('row')
          .find((r) => r.textContent?.includes(held!.applyNo));
        if (!found) throw new Error(`no row ${held!.applyNo}`);
        return found;
      },
      { timeout: 8_000 },
    );
    expect(row.textContent).toContain('客服小李审核中');
    await user.dblClick(row);
    const dialog = await screen.findByRole('dialog', {}, { timeout: 8_000 });
    expect((await within(dialog).findByRole('note', {}, { timeout: 8_000 })).textContent).toContain('该申请正由客服小李审核中');
    await user.keyboard('t');
    await waitFor(async () => expect((await stored(held!.id)).claimBy).not.toBe(agent!.id), { timeout: 8_000 });
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /通过/ })).not.toBeNull(), { timeout: 8_000 });
    await user.keyboard('a');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect((await stored(held!.id)).status).toBe(1), { timeout: 8_000 });
    const takeovers = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'CARD_VERIFY_TAKEOVER'), eq(t.sysLog.target, `card-verify/${held!.id}`)));
    expect(takeovers).toHaveLength(1);
  });

  it('★ 到期雷达 shows the weeks ahead and the workload forecast', async () => {
    await signIn(s, 'manager');
    visit(s, '/cardVerify/card-verify-list?action=radar&days=60');
    renderWithUser(<App />);
    const radar = await screen.findByRole('region', { name: '到期雷达' }, { timeout: 8_000 }).catch(() => screen.findByLabelText('到期雷达'));
    const weeks = await within(radar).findByRole('table', { name: '每周到期与审核工作量' });
    await waitFor(() => expect(within(weeks).getAllByRole('row').length).toBeGreaterThan(5), { timeout: 8_000 });
    expect((await within(radar).findByLabelText('到期雷达合计')).textContent).toMatch(/^近60天到期 \d+ 张 · 活跃乘客 \d+ 张/);
  });
});

describe('验卡配置', () => {
  it('shows the design’s refusal on the window and saves with Ctrl+S', async () => {
    await signIn(s, 'manager');
    visit(s, '/cardVerify/card-verify-config');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '验卡配置' }, { timeout: 8_000 });
    const window = within(form).getByLabelText(/提前月数/) as HTMLInputElement;
    await user.clear(window);
    await user.type(window, '7{Enter}');
    await waitFor(() => expect(form.textContent).toMatch(/验卡提前月数应在1–6之间/), { timeout: 8_000 });
    await user.clear(window);
    await user.type(window, '2');
    await user.keyboard('{Control>}s{/Control}');
    const heading = within(form).getByRole('heading').textContent!;
    await waitFor(
      async () => {
        const rows = await db().select().from(cardVerifyConfigs).where(eq(cardVerifyConfigs.windowMonthsBefore, 2));
        expect(rows.length).toBeGreaterThanOrEqual(1);
      },
      { timeout: 8_000 },
    );
    expect(heading).toMatch(/徐汇区 · (学生卡|老年卡)验卡配置/);
  });
});
