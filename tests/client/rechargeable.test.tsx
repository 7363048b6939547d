import { act, screen, waitFor, within } from '@testing-library/react';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { fenToYuan } from '../../src/shared/domain/money';
import type { AppDeps } from '../../src/server/context';
import * as t from '../../src/server/db/schema';
import { builtInPaymentChannel } from '../../src/server/lib/payment-channel';
import { createPii } from '../../src/server/lib/pii';
import { createOrder, payNotify } from '../../src/server/modules/rechargeable/money';
import { rechargePlans, rechargeSettings, walletAdjustments, walletOrders, wallets } from '../../src/server/modules/rechargeable/schema';
import { takeQueuedTask } from '../support/queued-task';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import { TEST_PII_KEY, type TestServer } from '../support/test-server';

/** 储值管理 on the real server: the checker's keyboard queue, refunds, freezing, the plan form and the setting, as stored. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const deps = () => ({ db: db(), clock: s.clock, pii: createPii(TEST_PII_KEY), payments: builtInPaymentChannel({ refundFails: false }), config: s.config }) as unknown as AppDeps;
const used = new Set<number>();

/** A paid wallet of a new rider in 徐汇区 (the manager's district). */
async function funded(amount = 20_000) {
  const [xuhui] = await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区'));
  const rows = (await db().execute(sql`select r.id from riders r where r.district_id = ${xuhui!.id} and not exists (select 1 from wallets w where w.rider_id = r.id) order by r.id`)) as unknown as { rows: { id: number }[] };
  const riderId = rows.rows.map((r) => r.id).find((id) => !used.has(id))!;
  used.add(riderId);
  const order = await createOrder(deps(), { riderId, amount });
  await payNotify(deps(), order.orderNo);
  const phone = createPii(TEST_PII_KEY).decrypt((await db().select().from(t.riders).where(eq(t.riders.id, riderId)))[0]!.phoneEnc);
  return { order, walletId: order.walletId, phone, masked: `${phone.slice(0, 3)}****${phone.slice(-4)}` };
}
const agentId = async () => (await db().select().from(t.users).where(eq(t.users.login, 'agent')))[0]!.id;

async function rowOf(table: string, text: string) {
  const main = await screen.findByRole('main');
  const grid = await within(main).findByRole('table', { name: table }, { timeout: 5_000 });
  return waitFor(
    () => {
      const row = within(grid)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(text));
      expect(row).toBeTruthy();
      return row!;
    },
    { timeout: 5_000 },
  );
}

describe('储值管理', () => {
  it('g w opens 储值管理 on its plans; the tabs are in the address', async () => {
    await signIn(s, 'manager');
    visit(s, '/');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('main');
    await user.keyboard('gw');
    expect(await rowOf('储值档位列表', '充100送5元')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: '人工调账' }));
    expect(await screen.findByRole('table', { name: '人工调账列表' }, { timeout: 5_000 })).toBeTruthy();
  });

  it('the checker’s queue: j/k, a, the amount retyped, Enter; the server stored the approval and the next one waits', async () => {
    const [a, b] = [await funded(), await funded()];
    const maker = await agentId();
    const now = s.clock.now();
    const made = await db()
      .insert(walletAdjustments)
      .values([
        { walletId: a.walletId, districtId: (await db().select().from(wallets).where(eq(wallets.id, a.walletId)))[0]!.districtId, bucket: 1, delta: 1_200, reason: '乘车重复扣费，人工退回十二元', makerId: maker, idempotencyKey: `client-a-${now.getTime()}`, createdAt: new Date(now.getTime() - 60_000) },
        { walletId: b.walletId, districtId: (await db().select().from(wallets).where(eq(wallets.id, b.walletId)))[0]!.districtId, bucket: 2, delta: 300, reason: '活动赠送未到账，人工补发三元', makerId: maker, idempotencyKey: `client-b-${now.getTime()}`, createdAt: now },
      ])
      .returning();
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=adjust&status=0');
    const { user } = renderWithUser(<App />);
    const first = await rowOf('人工调账列表', b.masked);
    await rowOf('人工调账列表', a.masked);
    first.focus();
    // Newest first: b, then a; j moves down to a.
    await user.keyboard('j');
    await user.keyboard('a');
    const dialog = await screen.findByRole('dialog', { name: `复核通过人工调账 · ${a.masked}` });
    expect(dialog.textContent).toContain('+12.00');
    await user.keyboard('12{Enter}');
    expect(await screen.findByText(`已复核通过人工调账 +12.00 元（${a.masked}）`)).toBeTruthy();
    await waitFor(async () => expect((await db().select().from(walletAdjustments).where(eq(walletAdjustments.id, made[0]!.id)))[0]!.status).toBe(1));
    expect((await db().select().from(wallets).where(eq(wallets.id, a.walletId)))[0]!.principal).toBe(21_200);
    // A wrong retype is refused beside the field and changes nothing.
    const next = await rowOf('人工调账列表', b.masked);
    next.focus();
    await user.keyboard('a');
    await screen.findByRole('dialog', { name: `复核通过人工调账 · ${b.masked}` });
    await user.keyboard('30{Enter}');
    expect((await screen.findAllByText(/确认金额与调账金额不一致/)).length).toBeGreaterThan(0);
    expect((await db().select().from(walletAdjustments).where(eq(walletAdjustments.id, made[1]!.id)))[0]!.status).toBe(0);
  });

  it('f freezes the focused wallet with its reason; the server stored it', async () => {
    const w = await funded();
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=wallet&sort=updatedDate,desc');
    const { user } = renderWithUser(<App />);
    const row = await rowOf('用户钱包列表', w.masked);
    row.focus();
    await user.keyboard('f');
    await screen.findByRole('dialog', { name: `冻结钱包 · ${w.masked}` });
    await user.keyboard('乘客挂失{Enter}');
    expect(await screen.findByText(`钱包 ${w.masked} 已冻结`)).toBeTruthy();
    await waitFor(async () => expect((await db().select().from(wallets).where(eq(wallets.id, w.walletId)))[0]).toEqual(expect.objectContaining({ status: 2, statusReason: '乘客挂失' })));
  });
});

describe('the checker’s queue, keyboard only', () => {
  it('a, the amount, Enter — and the next request is under the cursor: a again approves it', async () => {
    const ws = [await funded(), await funded(), await funded()];
    const maker = await agentId();
    const now = s.clock.now().getTime();
    await db()
      .insert(walletAdjustments)
      .values(
        await Promise.all(
          ws.map(async (w, i) => ({
            walletId: w.walletId,
            districtId: (await db().select().from(wallets).where(eq(wallets.id, w.walletId)))[0]!.districtId,
            bucket: 1,
            delta: 100 * (i + 1),
            reason: `键盘复核测试第${i + 1}笔，乘车多扣退回`,
            makerId: maker,
            idempotencyKey: `client-queue-${now}-${i}`,
            createdAt: new Date(now + i * 1_000),
          })),
        ),
      );
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=adjust&status=0');
    const { user } = renderWithUser(<App />);
    // Newest first: the third, the second, the first.
    const top = await rowOf('人工调账列表', ws[2]!.masked);
    top.focus();
    await user.keyboard('a');
    await screen.findByRole('dialog', { name: `复核通过人工调账 · ${ws[2]!.masked}` });
    await user.keyboard('3{Enter}');
    expect(await screen.findByText(`已复核通过人工调账 +3.00 元（${ws[2]!.masked}）`)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(async () => expect((await screen.findByRole('table', { name: '人工调账列表' })).textContent).not.toContain(ws[2]!.masked), { timeout: 5_000 });
    // The next request is under the cursor, focused.
    await waitFor(() => expect(document.activeElement?.textContent).toContain(ws[1]!.masked));
    await user.keyboard('a');
    await screen.findByRole('dialog', { name: `复核通过人工调账 · ${ws[1]!.masked}` });
    await user.keyboard('2{Enter}');
    expect(await screen.findByText(`已复核通过人工调账 +2.00 元（${ws[1]!.masked}）`)).toBeTruthy();
    const approved = await db().select().from(walletAdjustments).where(eq(walletAdjustments.status, 1));
    expect(approved.filter((r) => ws.slice(1).some((w) => w.walletId === r.walletId))).toHaveLength(2);
  });
});

describe('储值订单', () => {
  it('the palette’s 储值退款 address opens the refund with the server’s refundable amount; Enter refunds once', async () => {
    const w = await funded(15_000);
    await signIn(s, 'manager');
    visit(s, `/rechargeable/recharge-order?orderNo=${w.order.orderNo}&action=refund`);
    const { user } = renderWithUser(<App />);
    const dialog = await screen.findByRole('dialog', { name: `储值退款 · ${w.order.orderNo}` });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /退款 150.00 元/ })).toBeTruthy());
    await user.keyboard('乘客申请退回余额{Enter}');
    expect(await screen.findByText(`储值订单 ${w.order.orderNo} 已退款 150.00 元`)).toBeTruthy();
    const [o] = await db().select().from(walletOrders).where(eq(walletOrders.id, w.order.id));
    expect(o).toEqual(expect.objectContaining({ status: 2, refundAmount: 15_000 }));
    const summary = await screen.findByLabelText('储值订单合计');
    expect(summary.textContent).toMatch(/已退款 \d+ 笔/);
  });
});

describe('新增储值 and 储值设置', () => {
  it('the super user adds a plan in yuan; the server stored fen; the gift above half is refused beside its field', async () => {
    await signIn(s, 'admin');
    visit(s, '/rechargeable/add-recharge');
    const { user } = renderWithUser(<App />);
    const name = await screen.findByLabelText(/档位名称/);
    await user.type(name, '充150送20元');
    await user.type(screen.getByLabelText(/充值金额/), '150');
    const gift = screen.getByLabelText(/赠送金额/);
    await user.clear(gift);
    await user.type(gift, '80');
    await user.keyboard('{Control>}s{/Control}');
    expect((await screen.findAllByText('赠送金额不能超过充值金额的50%')).length).toBeGreaterThan(0);
    await user.clear(gift);
    await user.type(gift, '20');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已新增储值档位「充150送20元」')).toBeTruthy();
    const [p] = await db().select().from(rechargePlans).where(eq(rechargePlans.name, '充150送20元'));
    expect(p).toEqual(expect.objectContaining({ amount: 15_000, giftAmount: 2_000, districtId: null }));
  });

  it('the manager reads the setting, read-only', async () => {
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-setting');
    renderWithUser(<App />);
    expect(await screen.findByText(/只读：储值设置全市统一/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /保存/ })).toBeNull();
  });

  it('the super user saves the setting in yuan; the server stored fen', async () => {
    await signIn(s, 'admin');
    visit(s, '/rechargeable/recharge-setting');
    const { user } = renderWithUser(<App />);
    const cap = await screen.findByLabelText(/单笔调账上限/);
    await waitFor(() => expect((cap as HTMLInputElement).closest('fieldset')!.disabled).toBe(false));
    await user.clear(cap);
    await user.type(cap, '300');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('已保存储值设置')).toBeTruthy();
    const [row] = await db().select().from(rechargeSettings);
    expect(row!.adjustSingleMaxFen).toBe(30_000);
  });
});

describe('the palette and the wallet detail', () => {
  async function palette(login: string) {
    await signIn(s, login);
    visit(s, '/rechargeable/recharge-order');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: '命令面板' }, { timeout: 5_000 });
    const selected = () => within(dialog).queryByRole('option', { selected: true })?.textContent ?? '';
    return { user, dialog, selected };
  }

  it('查钱包 ‹手机号› finds the one wallet without the phone in the address; Enter shows its detail and ledger', async () => {
    const w = await funded(12_300);
    const { user, selected } = await palette('manager');
    await user.keyboard('查钱包');
    await waitFor(() => expect(selected().startsWith('查钱包')).toBe(true), { timeout: 3_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(`${w.phone}{Enter}`);
    const row = await rowOf('用户钱包列表', w.masked);
    expect(window.location.pathname).toBe('/rechargeable/recharge-manage');
    expect(window.location.search).not.toContain(w.phone);
    const table = await screen.findByRole('table', { name: '用户钱包列表' });
    await waitFor(() => expect(within(table).getAllByRole('row').filter((r) => r.textContent?.includes('****'))).toHaveLength(1));
    row.focus();
    await user.keyboard('{Enter}');
    const detail = await screen.findByRole('dialog', { name: `钱包详情 · ${w.masked}` });
    await waitFor(() => expect(within(detail).getByRole('region', { name: '钱包流水' }).textContent).toContain('充值'));
    expect(detail.textContent).toContain('123.00 元');
  });

  it('人工调账 ‹手机号› ‹±金额› ‹原因› files a request the server stores as 待复核, the wallet unchanged', async () => {
    const w = await funded();
    const { user, selected } = await palette('agent');
    await user.keyboard('人工调账');
    await waitFor(() => expect(selected().startsWith('人工调账')).toBe(true), { timeout: 3_000 });
    await user.keyboard('{Enter}');
    await user.keyboard(`${w.phone}{Enter}`);
    await user.keyboard('-2.5{Enter}');
    await user.keyboard('乘客投诉重复扣费，核实后扣回{Enter}');
    expect(await screen.findByText(`已提交人工调账 −2.50 元（${w.masked}），待他人复核`)).toBeTruthy();
    const [row] = await db().select().from(walletAdjustments).where(eq(walletAdjustments.walletId, w.walletId));
    expect(row).toEqual(expect.objectContaining({ status: 0, delta: -250, bucket: 1 }));
    expect((await db().select().from(wallets).where(eq(wallets.id, w.walletId)))[0]!.principal).toBe(20_000);
  });
});

describe('★ 每日轧账', () => {
  it('shows the area balanced and the liability per day; a wallet changed past its ledger is a red row', async () => {
    const w = await funded(4_400);
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=reconcile');
    const first = renderWithUser(<App />);
    expect(await screen.findByText(/全部平衡/, {}, { timeout: 5_000 })).toBeTruthy();
    const board = await screen.findByRole('table', { name: '储值负债' });
    expect(within(board).getAllByRole('row')).toHaveLength(31);
    first.unmount();
    await db().update(wallets).set({ principal: 4_401 }).where(eq(wallets.id, w.walletId));
    visit(s, '/rechargeable/recharge-manage?tab=reconcile');
    renderWithUser(<App />);
    const broken = await screen.findByRole('table', { name: '不平的钱包' }, { timeout: 5_000 });
    const row = within(broken).getAllByRole('row').find((r) => r.textContent?.includes(w.masked))!;
    expect(row.textContent).toContain('流水连贯，余额被改动');
    await db().update(wallets).set({ principal: 4_400 }).where(eq(wallets.id, w.walletId));
  });

  it('names the proof a wallet fails, and says how many are broken when more than the 200 listed', async () => {
    const w = await funded(4_500);
    // The order claims a gift the wallet never received: the gift proof alone fails.
    await db().update(walletOrders).set({ giftAmount: 700 }).where(eq(walletOrders.id, w.order.id));
    const made = (await db().execute(sql`
      insert into wallets (rider_id, district_id, principal, gift, created_at, updated_at)
      select r.id, r.district_id, 1, 0, now(), now() from riders r
      where not exists (select 1 from wallets w where w.rider_id = r.id)
      order by r.id desc limit 201 returning id`)) as unknown as { rows: { id: number }[] };
    try {
      await signIn(s, 'admin');
      visit(s, '/rechargeable/recharge-manage?tab=reconcile');
      renderWithUser(<App />);
      const status = await screen.findByText(/共 \d+ 个不平，列出前 200 个/, {}, { timeout: 5_000 });
      expect(Number(/共 (\d+) 个不平/.exec(status.textContent ?? '')![1])).toBeGreaterThanOrEqual(202);
      const row = await rowOf('不平的钱包', w.masked);
      expect(row.textContent).toContain('赠送≠订单');
      expect(row.textContent).not.toContain('流水≠余额');
      expect(row.textContent).toContain('0.00 / 0.00 / 7.00');
      expect(row.textContent).toContain('流水连贯');
      expect(row.textContent).not.toContain('余额被改动');
      const ledgerless = await rowOf('不平的钱包', '流水≠余额、本金≠订单');
      expect(ledgerless.textContent).toContain('流水连贯，余额被改动');
    } finally {
      await db().execute(sql`delete from wallets where id in (${sql.join(
        made.rows.map((m) => sql`${m.id}`),
        sql`, `,
      )})`);
      await db().update(walletOrders).set({ giftAmount: 0 }).where(eq(walletOrders.id, w.order.id));
    }
  });
});

describe('储值管理: summaries and exports (issue 22)', () => {
  /** The export task the button created (the newest of its kind), removed again so the next test has room for open tasks. */
  const takeTask = (kind: string) => takeQueuedTask(db(), kind);
  const xuhuiId = async () => (await db().select().from(t.districts).where(eq(t.districts.name, '徐汇区')))[0]!.id;

  it('用户钱包: the summary line is Σ of the area’s stored wallets; 导出 Excel queues a task without the typed phone', async () => {
    const w = await funded(12_300);
    const stored = await db().select().from(wallets).where(eq(wallets.districtId, await xuhuiId()));
    const principal = stored.reduce((n, x) => n + x.principal, 0);
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=wallet');
    const { user } = renderWithUser(<App />);
    const summary = await screen.findByLabelText('用户钱包合计', {}, { timeout: 5_000 });
    await waitFor(() => expect(summary.textContent).toContain(`共 ${stored.length} 个钱包 · 本金 ${fenToYuan(principal)} 元`));
    await user.type(await screen.findByLabelText('手机号'), `${w.phone}{Enter}`);
    await rowOf('用户钱包列表', w.masked);
    await waitFor(() => expect(screen.getByLabelText('用户钱包合计').textContent).toContain('共 1 个钱包 · 本金 123.00 元'));
    await user.click(screen.getByRole('button', { name: '导出 Excel' }));
    const task = await takeTask('wallet.wallets');
    expect(task).toEqual(expect.objectContaining({ title: '用户钱包', districtScope: await xuhuiId() }));
    expect(JSON.stringify(task.params)).not.toContain(w.phone);
  });

  it('钱包详情: 导出流水 queues the wallet’s ledger by its id', async () => {
    const w = await funded(8_000);
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=wallet');
    const { user } = renderWithUser(<App />);
    await user.type(await screen.findByLabelText('手机号'), `${w.phone}{Enter}`);
    await user.click(within(await rowOf('用户钱包列表', w.masked)).getByRole('button', { name: /详情/ }));
    const dialog = await screen.findByRole('dialog', { name: `钱包详情 · ${w.masked}` });
    const button = within(dialog).getByRole('button', { name: '导出流水' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    await user.click(button);
    const task = await takeTask('wallet.ledger');
    expect(task).toEqual(expect.objectContaining({ title: `钱包流水 ${w.walletId}`, params: expect.objectContaining({ walletId: w.walletId }) }));
  });

  it('the palette’s 导出人工调账 address (`?tab=adjust&action=export`) queues the task on arrival, once', async () => {
    await signIn(s, 'manager');
    const before = (await db().select().from(t.exportTasks).where(eq(t.exportTasks.kind, 'wallet.adjustments'))).length;
    visit(s, '/rechargeable/recharge-manage?tab=adjust&status=0&action=export');
    renderWithUser(<App />);
    await screen.findByRole('table', { name: '人工调账列表' }, { timeout: 5_000 });
    const task = await takeTask('wallet.adjustments');
    expect(task).toEqual(expect.objectContaining({ title: '人工调账 待复核', params: expect.objectContaining({ status: 0 }) }));
    expect((await db().select().from(t.exportTasks).where(eq(t.exportTasks.kind, 'wallet.adjustments'))).length).toBe(before);
  });

  it('the palette’s 导出用户钱包 run while 储值档位 is shown exports the wallets, not the plans (review)', async () => {
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=plan');
    renderWithUser(<App />);
    await screen.findByLabelText('储值档位统计', {}, { timeout: 5_000 });
    const kinds = async () => (await db().select({ kind: t.exportTasks.kind }).from(t.exportTasks)).map((r) => r.kind);
    const plansBefore = (await kinds()).filter((k) => k === 'wallet.plans').length;
    await act(async () => {
      window.history.pushState(null, '', `${s.url}/rechargeable/recharge-manage?tab=wallet&action=export`);
    });
    await screen.findByLabelText('用户钱包合计', {}, { timeout: 5_000 });
    expect((await takeTask('wallet.wallets')).title).toBe('用户钱包');
    expect((await kinds()).filter((k) => k === 'wallet.plans')).toHaveLength(plansBefore);
  });

  it('人工调账 and 储值档位: each summary line counts the stored rows by status; each 导出 Excel queues its task', async () => {
    const area = await xuhuiId();
    const adjustments = await db().select().from(walletAdjustments).where(eq(walletAdjustments.districtId, area));
    const pending = adjustments.filter((j) => j.status === 0).length;
    await signIn(s, 'manager');
    visit(s, '/rechargeable/recharge-manage?tab=adjust');
    const { user } = renderWithUser(<App />);
    const summary = await screen.findByLabelText('人工调账合计', {}, { timeout: 5_000 });
    await waitFor(() => expect(summary.textContent).toContain(`共 ${adjustments.length} 笔 · 待复核 ${pending} 笔`));
    await user.click(screen.getByRole('button', { name: '导出 Excel' }));
    expect((await takeTask('wallet.adjustments')).title).toBe('人工调账');

    await user.click(screen.getByRole('tab', { name: '储值档位' }));
    const plans = await db().select().from(rechargePlans);
    const visible = plans.filter((p) => p.districtId === null || p.districtId === area);
    const planSummary = await screen.findByLabelText('储值档位统计', {}, { timeout: 5_000 });
    await waitFor(() => expect(planSummary.textContent).toContain(`共 ${visible.length} 个档位 · 启用 ${visible.filter((p) => p.status === 1).length} · 停用 ${visible.filter((p) => p.status === 0).length}`));
    await user.click(screen.getByRole('button', { name: '导出 Excel' }));
    expect((await takeTask('wallet.plans')).title).toBe('储值档位');
  });
});
