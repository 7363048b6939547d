import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { REJECT_PRESETS } from '../../src/shared/api/handle-card';
import { shanghaiDate } from '../../src/shared/domain/time';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { placeholderImage } from '../../src/server/lib/sealed-files';
import { payApplication, submitApplication, type SubmitInput } from '../../src/server/modules/handle-card/apply-service';
import { handleCardApplications as apps, handleCardSettings } from '../../src/server/modules/handle-card/schema';
import { citizenIdOf } from '../../src/server/modules/handle-card/seed-plan';
import { openPalette } from '../support/palette-client';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 办卡申请, 办卡设置 and 办卡规则编辑 on the real server: what the screens show of real rows, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);
const deps = () => ({ db: s.database.db, clock: s.clock, pii }) as unknown as AppDeps;
let seq = 300;
const stored = async (id: number) => (await db().select().from(apps).where(eq(apps.id, id)))[0]!;

async function pending(over: Partial<SubmitInput> = {}) {
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const [rider] = await db().select({ id: t.riders.id }).from(t.riders).limit(1);
  const birth = `${Number(shanghaiDate(s.clock.now()).slice(0, 4)) - 31}-06-15`;
  const a = await submitApplication(deps(), {
    riderId: rider!.id,
    districtId: xuhui!.id,
    cardCategory: 2,
    name: '客户端申请',
    idNo: citizenIdOf('310104', birth, ++seq, false),
    phone: '13911112222',
    address: '上海市徐汇区天钥桥路100号',
    delivery: 2,
    photo: placeholderImage('照片', 358, 441),
    idFront: placeholderImage('正面', 428, 270),
    idBack: placeholderImage('反面', 428, 270),
    ...over,
  });
  return payApplication(deps(), a.id);
}

async function rowOf(text: string) {
  const main = await screen.findByRole('main');
  const table = await within(main).findByRole('table', { name: '办卡申请列表' }, { timeout: 5_000 });
  return waitFor(
    () => {
      const row = within(table)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 5_000 },
  );
}

describe('办卡申请', () => {
  it('lists the district’s applications masked, with the summary line; `a` approves and a card number is stored', async () => {
    const a = await pending();
    await signIn(s, 'agent');
    visit(s, `/handleCard/handle-card-list?applyNo=${a.applyNo}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf(a.applyNo);
    expect(row.textContent).toContain('客**');
    expect(row.textContent).toContain('139****2222');
    expect(row.textContent).not.toContain('客户端申请');
    expect(within(row).getByText('待审核')).toBeTruthy();
    const summary = await screen.findByLabelText('办卡申请统计');
    await waitFor(() => expect(summary.textContent).toMatch(/^共 1 条 · 待审核 1（预检全绿 1，审核中 0）/));
    row.focus();
    await user.keyboard('a');
    expect(await screen.findByText(new RegExp(`已通过 ${a.applyNo}，预留卡号 3102`))).toBeTruthy();
    const after = await stored(a.id);
    expect(after.status).toBe(2);
    expect(after.cardNo).toMatch(/^3102/);
  });

  it('`r` opens 驳回; `3` takes the third preset; Ctrl+Enter rejects and the fee is refunded once', async () => {
    const a = await pending();
    await signIn(s, 'agent');
    visit(s, `/handleCard/handle-card-list?applyNo=${a.applyNo}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf(a.applyNo);
    row.focus();
    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: `驳回申请 · ${a.applyNo}` });
    // Too short first: the design's words.
    await user.type(within(dialog).getByRole('textbox', { name: /原因/ }), '不行');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('请填写驳回原因（至少4个字）')).toBeTruthy();
    await user.clear(within(dialog).getByRole('textbox', { name: /原因/ }));
    await user.keyboard('3');
    await waitFor(() => expect((within(dialog).getByRole('textbox', { name: /原因/ }) as HTMLTextAreaElement).value).toBe(REJECT_PRESETS[2]));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(`已驳回 ${a.applyNo}，工本费原路退回`)).toBeTruthy();
    expect(await stored(a.id)).toMatchObject({ status: 3, reason: REJECT_PRESETS[2], payStatus: 2 });
    expect(await db().select().from(t.moneyRefunds).where(and(eq(t.moneyRefunds.kind, 'handle'), eq(t.moneyRefunds.orderId, a.id)))).toHaveLength(1);
  });

  it('Enter opens the detail with the precheck list; a material opens only with a reason, and the look is audited', async () => {
    const a = await pending({ cardCategory: 4, idNo: citizenIdOf('310104', `${Number(shanghaiDate(s.clock.now()).slice(0, 4)) - 17}-02-02`, ++seq, true) });
    await signIn(s, 'agent');
    visit(s, `/handleCard/handle-card-list?applyNo=${a.applyNo}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf(a.applyNo);
    expect(row.textContent).toContain('证明材料');
    row.focus();
    await user.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: `办卡申请详情 · ${a.applyNo}` });
    const precheck = await within(drawer).findByRole('region', { name: '提交即预检' });
    expect(precheck.textContent).toContain('照片规格');
    expect(precheck.textContent).toContain('缺少学生证');
    expect(precheck.textContent).toContain('（1 项需核实）');
    const [look] = within(drawer).getAllByRole('button', { name: '查看' });
    await user.click(look!);
    const material = await screen.findByRole('dialog', { name: '查看材料 · 证件照' });
    await user.click(within(material).getByRole('button', { name: /^查看/ }));
    expect(await within(material).findByText('查看原因至少2个字')).toBeTruthy();
    await user.type(within(material).getByRole('textbox', { name: /查看原因/ }), '核对照片');
    await user.click(within(material).getByRole('button', { name: /^查看/ }));
    expect(await within(material).findByRole('img', { name: '证件照' })).toBeTruthy();
    const logged = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'HANDLE_CARD_MATERIAL'), eq(t.sysLog.target, `handle-card/${a.id}`)));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.summary).toContain('核对照片');
  });

  it('`t` on 制卡中 asks for the tracking number and ships; 完成 after', async () => {
    const a = await pending();
    await signIn(s, 'manager');
    visit(s, `/handleCard/handle-card-list?applyNo=${a.applyNo}`);
    const { user } = renderWithUser(<App />);
    let row = await rowOf(a.applyNo);
    row.focus();
    await user.keyboard('a');
    await waitFor(async () => expect((await stored(a.id)).status).toBe(2));
    row = await rowOf('制卡中');
    row.focus();
    await user.keyboard('t');
    const dialog = await screen.findByRole('dialog', { name: `录入快递单号 · ${a.applyNo}` });
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(dialog).findByText('邮寄办理须填写快递单号')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/快递单号/), 'SF1029384756');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(`${a.applyNo} 已寄出，快递单号 SF1029384756`)).toBeTruthy();
    expect(await stored(a.id)).toMatchObject({ status: 4, trackingNo: 'SF1029384756' });
  });

  it('批量通过预检全绿 approves the all-green waiting ones and leaves the red', async () => {
    const green = await pending();
    const red = await pending({ cardCategory: 4, idNo: citizenIdOf('310104', `${Number(shanghaiDate(s.clock.now()).slice(0, 4)) - 18}-02-02`, ++seq, true) });
    await signIn(s, 'agent');
    visit(s, '/handleCard/handle-card-list');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: '批量通过预检全绿' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: '批量通过预检全绿' });
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toMatch(/有 \d+ 条待审核申请预检全绿/));
    await user.click(within(dialog).getByRole('button', { name: /^通过 \d+ 条/ }));
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toMatch(/^已通过 \d+ 条/));
    expect((await stored(green.id)).status).toBe(2);
    expect((await stored(red.id)).status).toBe(1);
  });

  it('the keyboard queue (下一条办卡审核): Enter takes the oldest 待审核 with the photo and id beside the precheck list, a + Ctrl+Enter approves and takes the next, r 2 Ctrl+Enter rejects with the second preset, Esc leaves', async () => {
    const first = await pending();
    const second = await pending();
    // The oldest in the area's queue (the seed's waiting ones are younger).
    for (const [i, a] of [first, second].entries()) await db().update(apps).set({ createdAt: new Date(s.clock.now().getTime() - (900 - i) * 86_400_000) }).where(eq(apps.id, a.id));
    await signIn(s, 'agent');
    visit(s, '/handleCard/handle-card-list');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('main');
    // The palette's 下一条办卡审核 opens the queue.
    const { dialog: palette } = await openPalette(user);
    await user.keyboard('下一条办卡审核');
    await waitFor(() => expect(within(palette).getAllByRole('option')[0]!.textContent).toContain('下一条办卡审核'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /^办卡审核/ }, { timeout: 8_000 });
    await within(dialog).findByText(/按 Enter 领取下一条待审核申请/);
    await user.keyboard('{Enter}');
    await within(dialog).findByText(`办卡申请 ${first.applyNo}`, {}, { timeout: 8_000 });
    expect((await stored(first.id)).claimBy).not.toBeNull();
    // The photo and the id, opened through the audited call, beside ★ 预检's green/red list.
    await within(dialog).findByRole('img', { name: '证件照' }, { timeout: 8_000 });
    await within(dialog).findByRole('img', { name: '身份证人像面' }, { timeout: 8_000 });
    expect(within(dialog).getByRole('list', { name: '自动核验' }).textContent).toMatch(/照片规格.*身份证校验.*年龄.*一证一卡.*证明材料/);
    expect(dialog.textContent).toContain('自动核验（全部通过）');
    await user.keyboard('a');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect(await stored(first.id)).toMatchObject({ status: 2, claimBy: null }), { timeout: 8_000 });
    expect((await stored(first.id)).cardNo).toMatch(/^3102/);
    // The next one is taken at once.
    await within(dialog).findByText(`办卡申请 ${second.applyNo}`, {}, { timeout: 8_000 });
    await waitFor(async () => expect((await stored(second.id)).claimBy).not.toBeNull());
    await user.keyboard('r');
    await user.keyboard('2');
    await waitFor(() => expect((within(dialog).getByLabelText('驳回原因') as HTMLTextAreaElement).value).toBe(REJECT_PRESETS[1]));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect(await stored(second.id)).toMatchObject({ status: 3, reason: REJECT_PRESETS[1], payStatus: 2, claimBy: null }), { timeout: 8_000 });
    const looked = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'HANDLE_CARD_MATERIAL'), eq(t.sysLog.target, `handle-card/${first.id}`)));
    expect(looked.length).toBeGreaterThanOrEqual(1);
    await waitFor(() => expect(within(dialog).queryByText(`办卡申请 ${second.applyNo}`)).toBeNull(), { timeout: 8_000 });
    await waitFor(() => expect(within(dialog).queryByText('正在领取下一条…')).toBeNull(), { timeout: 8_000 });
    // Esc leaves and gives back whatever the queue took after the second.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^办卡审核/ })).toBeNull());
    const [agentUser] = await db().select().from(t.users).where(eq(t.users.login, 'agent'));
    await waitFor(async () => expect(await db().select().from(apps).where(and(eq(apps.claimBy, agentUser!.id), eq(apps.status, 1)))).toHaveLength(0));
  });

  it('an application another reviewer holds says who in the list and the queue; ROLE_ADMIN takes it over with t and approves', async () => {
    const held = await pending();
    const [agentUser] = await db().select().from(t.users).where(eq(t.users.login, 'agent'));
    await db().update(apps).set({ claimBy: agentUser!.id, claimUntil: new Date(s.clock.now().getTime() + 5 * 60_000) }).where(eq(apps.id, held.id));
    await signIn(s, 'manager');
    visit(s, `/handleCard/handle-card-list?applyNo=${held.applyNo}`);
    const { user } = renderWithUser(<App />);
    const row = await rowOf(held.applyNo);
    await waitFor(() => expect(row.textContent).toContain('客服小李审核中'));
    row.focus();
    await user.keyboard('q');
    const dialog = await screen.findByRole('dialog', { name: /^办卡审核/ }, { timeout: 8_000 });
    expect((await within(dialog).findByRole('note', {}, { timeout: 8_000 })).textContent).toContain('该申请正由客服小李审核中');
    expect((await stored(held.id)).claimBy).toBe(agentUser!.id);
    await user.keyboard('t');
    await waitFor(async () => expect((await stored(held.id)).claimBy).not.toBe(agentUser!.id), { timeout: 8_000 });
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /通过/ })).not.toBeNull(), { timeout: 8_000 });
    await user.keyboard('a');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () => expect(await stored(held.id)).toMatchObject({ status: 2, claimBy: null }), { timeout: 8_000 });
    const takeovers = await db().select().from(t.sysLog).where(and(eq(t.sysLog.operationType, 'HANDLE_CARD_TAKEOVER'), eq(t.sysLog.target, `handle-card/${held.id}`)));
    expect(takeovers).toHaveLength(1);
    await user.keyboard('{Escape}');
  });

  it('the palette’s 查办卡申请 ‹申请号› opens the application’s detail', async () => {
    const a = await pending();
    await signIn(s, 'agent');
    visit(s, '/handleCard/handle-card-list');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('main');
    const { dialog } = await openPalette(user);
    await user.keyboard('查办卡申请');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('查办卡申请'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(a.applyNo);
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: `办卡申请详情 · ${a.applyNo}` }, { timeout: 8_000 })).toBeTruthy();
  });
});

describe('办卡设置 and 办卡规则编辑', () => {
  it('办卡设置 saves the fee with Ctrl+S', async () => {
    await signIn(s, 'manager');
    visit(s, '/handleCard/handle-card-setting');
    const { user } = renderWithUser(<App />);
    const form = await screen.findByRole('form', { name: '办卡设置' }, { timeout: 5_000 });
    const fee = within(form).getByLabelText(/工本费/) as HTMLInputElement;
    await user.clear(fee);
    await user.type(fee, '15.5');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText(/已保存徐汇区记名个性化卡的办卡设置/)).toBeTruthy();
    const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [row] = await db().select().from(handleCardSettings).where(and(eq(handleCardSettings.districtId, xuhui!.id), eq(handleCardSettings.cardCategory, 2)));
    expect(row!.feeFen).toBe(1550);
  });

  it('办卡规则编辑 ?id= edits the 办卡须知 and Ctrl+S saves it, back to 办卡设置', async () => {
    const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
    const [setting] = await db().select().from(handleCardSettings).where(and(eq(handleCardSettings.districtId, xuhui!.id), eq(handleCardSettings.cardCategory, 5)));
    await signIn(s, 'manager');
    visit(s, `/handleCard/handle-card-rule-edit?id=${setting!.id}`);
    const { user } = renderWithUser(<App />);
    const text = (await screen.findByLabelText(/办卡须知/, { selector: 'textarea' }, { timeout: 5_000 })) as HTMLTextAreaElement;
    expect(text.value).toContain('老年卡线上办理须知');
    await user.clear(text);
    await user.type(text, '老年卡须知：请携带身份证原件领取。');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText(/已保存徐汇区老年卡的办卡须知/)).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/handleCard/handle-card-setting'));
    expect((await db().select().from(handleCardSettings).where(eq(handleCardSettings.id, setting!.id)))[0]!.ruleText).toBe('老年卡须知：请携带身份证原件领取。');
  });
});
