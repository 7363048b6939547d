import { screen, waitFor, within } from '@testing-library/react';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/client/app/app';
import * as t from '../../src/server/db/schema';
import { createPii } from '../../src/server/lib/pii';
import { menuCatalogue, menuItemIds } from '../../src/shared/api';
import { fenToYuan } from '../../src/shared/domain/money';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { DEMO_PASSWORD, TEST_PII_KEY, type TestServer } from '../support/test-server';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';

/**
 * 亲情卡 screens against the real server: the masked bindings list and its counts, 修改关系 and 解绑
 * with the agent's own password (what the server stored, checked in the database), the renew log's
 * sum, 卡片订阅's answers, and the buttons only FAMILY_CARD_EDIT sees.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});
const db = () => s.database.db;
const pii = createPii(TEST_PII_KEY);

const xuhui = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;

/** A live binding of the agent's district: its card number and the binder's citizen id in clear. */
async function liveBinding(skip = 0) {
  const rows = await db()
    .select({ b: t.familyBindings, cardNo: t.busCards.cardNo, citizenEnc: t.riders.citizenEnc })
    .from(t.familyBindings)
    .innerJoin(t.busCards, eq(t.busCards.id, t.familyBindings.cardId))
    .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId))
    .where(and(eq(t.familyBindings.districtId, await xuhui()), eq(t.familyBindings.status, 1)))
    .orderBy(t.familyBindings.id);
  const r = rows[skip]!;
  return { id: r.b.id, relation: r.b.relation, cardNo: r.cardNo, citizen: pii.decrypt(r.citizenEnc!) };
}

const stored = async (id: number) => (await db().select().from(t.familyBindings).where(eq(t.familyBindings.id, id)))[0]!;

async function open(login: string, path: string) {
  await signIn(s, login);
  visit(s, path);
  const rendered = renderWithUser(<App />);
  const main = await screen.findByRole('main', {}, { timeout: 5_000 });
  return { ...rendered, main };
}

describe('绑定关系', () => {
  it('lists the area\'s bindings with the server\'s counts and the binders masked: no full phone anywhere on the page', async () => {
    const district = await xuhui();
    const all = await db()
      .select({ b: t.familyBindings, phoneEnc: t.riders.phoneEnc })
      .from(t.familyBindings)
      .innerJoin(t.riders, eq(t.riders.id, t.familyBindings.holderId))
      .where(eq(t.familyBindings.districtId, district));
    const bound = all.filter((r) => r.b.status === 1).length;
    const { main } = await open('agent', '/callingCard/family-bind');
    expect(await within(main).findByText(new RegExp(`^共 ${all.length} 条，已绑定 ${bound}，已解绑 ${all.length - bound}，30天内到期 \\d+$`), {}, { timeout: 5_000 })).toBeTruthy();
    const table = await within(main).findByRole('table');
    await waitFor(() => expect(within(table).getAllByRole('link', { name: /^卡片详情 \d{16}$/ }).length).toBeGreaterThan(0), { timeout: 5_000 });
    expect(within(table).getAllByText(/^\d{3}\*{4}\d{4}$/).length).toBeGreaterThan(0);
    const text = document.body.textContent ?? '';
    for (const r of all) expect(text).not.toContain(pii.decrypt(r.phoneEnc));
    // Each row's card number opens the card view.
    const [link] = within(table).getAllByRole('link', { name: /^卡片详情 / });
    expect(link!.getAttribute('href')).toMatch(/^\/busUser\/card\?no=\d{16}$/);
  });

  it('修改关系: a wrong password is refused in Chinese and stores nothing; the right one stores the relation', async () => {
    const live = await liveBinding();
    const relation = live.relation === '外孙女' ? '外孙' : '外孙女';
    const { user, main } = await open('agent', `/callingCard/family-bind?busCardNo=${live.cardNo}`);
    await user.click(await within(main).findByRole('button', { name: `修改关系 ${live.cardNo}` }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: `修改关系 · ${live.cardNo}` });
    const field = within(dialog).getByLabelText(/关系/);
    await user.clear(field);
    await user.type(field, relation);
    const pwd = within(dialog).getByLabelText(/您的登录密码/);
    expect(pwd.getAttribute('type')).toBe('password');
    expect(within(dialog).getByText('连续输错 5 次将锁定 30 分钟')).toBeTruthy();
    await user.type(pwd, 'Wrong-pass-9{Enter}');
    expect(await within(dialog).findByText('登录密码错误', {}, { timeout: 5_000 })).toBeTruthy();
    expect((await stored(live.id)).relation).toBe(live.relation);

    await user.clear(pwd);
    await user.type(pwd, `${DEMO_PASSWORD}{Enter}`);
    expect(await screen.findByText(`已将亲情卡 ${live.cardNo} 的关系改为「${relation}」`, {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await stored(live.id)).relation).toBe(relation);
    expect(await within(main).findByRole('cell', { name: relation })).toBeTruthy();
    // The password went to the server in the spec's `pwd` only: never into the address or storage.
    expect(window.location.href).not.toContain(DEMO_PASSWORD);
    expect(JSON.stringify({ ...localStorage })).not.toContain(DEMO_PASSWORD);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(DEMO_PASSWORD);
  });

  it('解绑 from the list: the binder\'s citizen id and the password unbind it, and the row says 已解绑', async () => {
    const live = await liveBinding(1);
    const { user, main } = await open('agent', `/callingCard/family-bind?busCardNo=${live.cardNo}`);
    await user.click(await within(main).findByRole('button', { name: `解绑 ${live.cardNo}` }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: `解绑亲情卡 · ${live.cardNo}` });
    // A complete, valid citizen id moves on to the password by itself: the keys go on there.
    await user.type(within(dialog).getByLabelText(/绑定人身份证号/), live.citizen);
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/您的登录密码/));
    await user.keyboard(`${DEMO_PASSWORD}{Enter}`);
    expect(await screen.findByText(`已解绑亲情卡 ${live.cardNo}`, {}, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await stored(live.id)).toMatchObject({ status: 0 });
    expect((await stored(live.id)).unboundAt).not.toBeNull();
    await waitFor(() => expect(within(main).queryByRole('button', { name: `解绑 ${live.cardNo}` })).toBeNull());
    expect(within(within(main).getByRole('table')).getAllByText(/^已解绑/).length).toBeGreaterThan(0);
  });

  it('the palette\'s 解绑亲情卡 lands on the list filtered to the card with its 解绑 dialog open', async () => {
    const live = await liveBinding(2);
    const { main } = await open('agent', `/callingCard/family-bind?busCardNo=${live.cardNo}&action=unbind`);
    expect(await screen.findByRole('dialog', { name: `解绑亲情卡 · ${live.cardNo}` }, { timeout: 5_000 })).toBeTruthy();
    await waitFor(() => expect(window.location.search).toBe(`?busCardNo=${live.cardNo}`));
    expect(await within(main).findByRole('link', { name: `卡片详情 ${live.cardNo}` }, { timeout: 5_000 })).toBeTruthy();
    expect((await stored(live.id)).status).toBe(1);
  });

  it('导出亲情卡绑定 from the palette downloads the masked spreadsheet, and the server logs the export', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const before = (await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'FAMILY_EXPORT'))).length;
    await open('agent', '/callingCard/family-bind?action=export');
    expect(await screen.findByText('已导出（绑定人姓名、手机号、身份证号已脱敏）', {}, { timeout: 10_000 })).toBeTruthy();
    expect(saved).toEqual([expect.stringMatching(/^亲情卡绑定-\d{8}-\d{4}\.xlsx$/)]);
    await waitFor(() => expect(window.location.search).toBe(''));
    const rows = await db().select().from(t.sysLog).where(eq(t.sysLog.operationType, 'FAMILY_EXPORT')).orderBy(t.sysLog.id);
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ operatorLogin: 'agent' });
  });

  it('an account with the screen but without FAMILY_CARD_EDIT sees no 解绑 or 修改关系', async () => {
    const [viewer] = await db().select().from(t.users).where(eq(t.users.login, 'viewer'));
    const [group] = await db().insert(t.roleGroups).values({ name: '亲情卡只读组', description: '只看亲情卡', createdAt: s.clock.now(), updatedAt: s.clock.now() }).returning();
    const items = menuItemIds(menuCatalogue(CONTRACT_MODULES), ['callingCard']);
    expect(items).not.toContain('FAMILY_CARD_EDIT');
    await db().insert(t.roleGroupItems).values(items.map((itemId) => ({ groupId: group!.id, itemId })));
    await db().insert(t.users).values({ ...viewer!, id: undefined, login: 'familyreader', firstName: '亲情卡只读', groupId: group!.id });
    const { main } = await open('familyreader', '/callingCard/family-bind');
    const table = await within(main).findByRole('table', {}, { timeout: 5_000 });
    await waitFor(() => expect(within(table).getAllByRole('link', { name: /^卡片详情 / }).length).toBeGreaterThan(0), { timeout: 5_000 });
    expect(within(main).queryByRole('button', { name: /^(解绑|修改关系) / })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: '操作' })).toBeNull();
    // Reading and exporting stay: they are any signed-in account's.
    expect(within(main).getByRole('button', { name: /导出 Excel/ })).toBeTruthy();
  });
});

describe('续费记录', () => {
  it('shows the area\'s renewals with how many and how much in all, in yuan', async () => {
    const district = await xuhui();
    const [sum] = await db()
      .select({ n: sql<number>`count(*)::int`, amount: sql<number>`coalesce(sum(${t.familyRenewals.amount}), 0)::int` })
      .from(t.familyRenewals)
      .where(eq(t.familyRenewals.districtId, district));
    const [latest] = await db().select().from(t.familyRenewals).where(eq(t.familyRenewals.districtId, district)).orderBy(sql`${t.familyRenewals.renewedAt} desc`, sql`${t.familyRenewals.id} desc`).limit(1);
    const { main } = await open('agent', '/callingCard/renew-log');
    expect(await within(main).findByText(`续期 ${sum!.n} 次，合计 ${fenToYuan(sum!.amount)} 元`, {}, { timeout: 5_000 })).toBeTruthy();
    const table = await within(main).findByRole('table');
    expect((await within(table).findAllByText(`${fenToYuan(latest!.amount)} 元`, {}, { timeout: 5_000 })).length).toBeGreaterThan(0);
    expect(within(table).getAllByRole('link', { name: /^卡片详情 \d{16}$/ }).length).toBeGreaterThan(0);
    expect(within(table).getAllByText(/^\d{3}\*{4}\d{4}$/).length).toBeGreaterThan(0);
  });
});

describe('卡片订阅', () => {
  it('reached from 绑定关系: answers for an existing card in plain Chinese, with a link to its card view, and for a missing one', async () => {
    const [senior] = await db().select().from(t.busCards).where(and(eq(t.busCards.category, 5), eq(t.busCards.state, 1))).limit(1);
    const { user, main } = await open('agent', '/callingCard/family-bind');
    await user.click(await within(main).findByRole('button', { name: '卡片订阅/查卡' }, { timeout: 5_000 }));
    await waitFor(() => expect(window.location.pathname).toBe('/callingCard/card-subscription'));
    // Role queries: the bindings list stays mounted (hidden) behind its tab, with its own 卡号 filter.
    const input = await within(main).findByRole('textbox', { name: '卡号' }, { timeout: 5_000 });
    const dict = within(main).getByRole('region', { name: '卡类型字典' });
    expect(await within(dict).findByText('老年卡', {}, { timeout: 5_000 })).toBeTruthy();
    expect(within(dict).getByText('学生卡')).toBeTruthy();

    await user.type(input, '12345{Enter}');
    expect(await within(main).findByText('卡号应为16位数字')).toBeTruthy();
    expect(window.location.search).toBe('');

    await user.clear(input);
    await user.type(input, `${senior!.cardNo}{Enter}`);
    await waitFor(() => expect(window.location.search).toBe(`?no=${senior!.cardNo}`));
    const answer = within(main).getByRole('region', { name: '卡中心答复' });
    expect(await within(answer).findByText('可以绑定为亲情卡', {}, { timeout: 5_000 })).toBeTruthy();
    expect(within(answer).getByText('已售')).toBeTruthy();
    expect(within(answer).getByText('老年卡')).toBeTruthy();
    expect(within(answer).getByRole('link', { name: `卡片详情 ${senior!.cardNo}` }).getAttribute('href')).toBe(`/busUser/card?no=${senior!.cardNo}`);

    await user.clear(input);
    await user.type(input, '9999999999999999{Enter}');
    expect(await within(answer).findByText(/^卡中心查无此卡/, {}, { timeout: 5_000 })).toBeTruthy();
    expect(within(answer).queryByRole('link')).toBeNull();
  });

  it('the palette\'s 卡中心查卡 opens it with the number asked, and says why a card cannot be bound', async () => {
    const [anon] = await db().select().from(t.busCards).where(and(eq(t.busCards.category, 3), eq(t.busCards.state, 1))).limit(1);
    const { user } = await open('agent', '/callingCard/renew-log');
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: '命令面板' });
    await user.keyboard('卡中心查卡');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('卡中心查卡'));
    await user.keyboard('{Enter}');
    await user.keyboard(anon!.cardNo);
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain(anon!.cardNo));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe(`/callingCard/card-subscription?no=${anon!.cardNo}`));
    const answer = await screen.findByRole('region', { name: '卡中心答复' }, { timeout: 5_000 });
    expect(await within(answer).findByText('不能绑定：只有学生卡和老年卡可以绑定为亲情卡', {}, { timeout: 5_000 })).toBeTruthy();
    expect(within(answer).getByText('不记名卡')).toBeTruthy();
  });
});
