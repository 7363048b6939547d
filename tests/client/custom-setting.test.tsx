import { screen, waitFor, within } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { saveDistrict } from '../../src/client/lib/session-store';
import * as t from '../../src/server/db/schema';
import { customBaseSettings, customRefundRules } from '../../src/server/modules/custom-setting/schema';
import { openPalette } from '../support/palette-client';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/** 定制公交设置 on the real server: what the screens show, and what the server stored after the keys. */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const db = () => s.database.db;
const districtId = async (name: string) => (await db().select().from(t.districts).where(eq(t.districts.name, name)))[0]!.id;
const storedBase = async (id: number) => (await db().select().from(customBaseSettings).where(eq(customBaseSettings.districtId, id)))[0]!;

describe('基础设置', () => {
  it('the manager edits their district: Enter saves the typed value, Ctrl+S a time of day', async () => {
    const xuhui = await districtId('徐汇区');
    await signIn(s, 'manager');
    visit(s, '/customSetting/custom-base');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await within(main).findByText('徐汇区定制公交基础设置', {}, { timeout: 5_000 });
    const timeout = within(main).getByLabelText(/支付超时时间/);
    await user.clear(timeout);
    await user.type(timeout, '5{Enter}');
    await waitFor(async () => expect((await storedBase(xuhui)).payTimeoutMin).toBe(5), { timeout: 5_000 });
    const open = await within(main).findByLabelText(/每日开售时间/);
    await user.clear(open);
    await user.type(open, '11:30');
    await user.keyboard('{Control>}s{/Control}');
    await waitFor(async () => expect((await storedBase(xuhui)).saleOpenTime).toBe(41_400), { timeout: 5_000 });
  });

  it('a refused value shows under its field and nothing is stored', async () => {
    const xuhui = await districtId('徐汇区');
    const before = await storedBase(xuhui);
    await signIn(s, 'manager');
    visit(s, '/customSetting/custom-base');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const seats = await within(main).findByLabelText(/每人每班次限购/, {}, { timeout: 5_000 });
    await user.clear(seats);
    await user.type(seats, '11{Enter}');
    expect(await within(main).findByText('每人每班次限购应在1–10张之间')).toBeTruthy();
    expect((await storedBase(xuhui)).maxSeatsPerUserPerClass).toBe(before.maxSeatsPerUserPerClass);
  });

  it('a save from an older version is refused, the other’s value shows beside the typed one, and the next save is made against it', async () => {
    const xuhui = await districtId('徐汇区');
    await signIn(s, 'manager');
    visit(s, '/customSetting/custom-base');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const timeout = await within(main).findByLabelText(/支付超时时间/, {}, { timeout: 5_000 });
    // Someone else saves meanwhile.
    const before = await storedBase(xuhui);
    await db()
      .update(customBaseSettings)
      .set({ payTimeoutMin: 9, rowVersion: before.rowVersion + 1 })
      .where(eq(customBaseSettings.districtId, xuhui));
    await user.clear(timeout);
    await user.type(timeout, '6{Enter}');
    expect(await within(main).findByText('设置已被他人修改，请刷新后再保存', {}, { timeout: 5_000 })).toBeTruthy();
    expect(await within(main).findByText('他人已改为：9')).toBeTruthy();
    expect((await storedBase(xuhui)).payTimeoutMin).toBe(9);
    await user.click(timeout);
    await user.keyboard('{Enter}');
    await waitFor(async () => expect((await storedBase(xuhui)).payTimeoutMin).toBe(6), { timeout: 5_000 });
    expect((await storedBase(xuhui)).rowVersion).toBe(before.rowVersion + 2);
  });

  it('★ 同步: the super user’s dry run lists old → new per district, and confirming applies it', async () => {
    const huangpu = await districtId('黄浦区');
    const xuhui = await districtId('徐汇区');
    await signIn(s, 'admin');
    saveDistrict(String(huangpu));
    visit(s, '/customSetting/custom-base');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: /同步到其他区域/ }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText(/提前售票天数/));
    await user.click(await within(dialog).findByLabelText('徐汇区'));
    const xuBefore = (await storedBase(xuhui)).saleDaysAhead;
    await user.click(within(dialog).getByRole('button', { name: '试算' }));
    const diff = await within(dialog).findByRole('table', { name: '同步试算' });
    const target = (await storedBase(huangpu)).saleDaysAhead;
    expect(within(diff).getByText(new RegExp(`提前售票天数：\\d+ → ${target}`))).toBeTruthy();
    // Nothing stored by the dry run.
    expect((await storedBase(xuhui)).saleDaysAhead).toBe(xuBefore);
    await user.click(within(dialog).getByRole('button', { name: /确认同步/ }));
    await waitFor(async () => expect((await storedBase(xuhui)).saleDaysAhead).toBe(target), { timeout: 5_000 });
    saveDistrict(null);
  });
});

describe('退款设置', () => {
  it('the versions with badges; the grid: Tab through cells, the preview on each key, Alt+↓ adds a row, Ctrl+S saves the draft', async () => {
    const xuhui = await districtId('徐汇区');
    const [draftRow] = await db().select().from(customRefundRules).where(and(eq(customRefundRules.districtId, xuhui), eq(customRefundRules.status, 0)));
    await signIn(s, 'manager');
    visit(s, '/customSetting/refund-setting');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const versions = await within(main).findByRole('table', { name: '退款规则版本' }, { timeout: 5_000 });
    expect(within(versions).getAllByText('生效中').length).toBeGreaterThan(0);
    expect(within(versions).getAllByText('已失效').length).toBeGreaterThan(0);
    // The editor opens on the draft: 30–120 分钟 30%, at least 2 yuan.
    await within(main).findByText(`退款阶梯 · 草稿 #${draftRow!.id}`);
    const preview = within(main).getByRole('status', { name: '阶梯预览' });
    expect(preview.textContent).toBe('50元·距发车90分钟 → 退35元');
    const fee = within(main).getByLabelText('第2行 手续费比例');
    await user.clear(fee);
    await user.type(fee, '2');
    expect(preview.textContent).toBe('50元·距发车90分钟 → 退48元');
    await user.type(fee, '0');
    expect(preview.textContent).toBe('50元·距发车90分钟 → 退40元');
    // Tab walks to the next cell of the row.
    await user.tab();
    expect(document.activeElement).toBe(within(main).getByLabelText('第2行 最低手续费'));
    // A gap is named on the next key.
    const to = within(main).getByLabelText('第2行 截止分钟');
    await user.clear(to);
    await user.type(to, '100');
    expect(preview.textContent).toBe('退款阶梯存在空档：100–120分钟');
    await user.clear(to);
    await user.type(to, '120');
    // Alt+↓ in the last row adds one starting where it ends.
    const grid = within(main).getByRole('table', { name: '退款阶梯' });
    const rowsBefore = within(grid).getAllByRole('row').length;
    await user.click(within(main).getByLabelText('第4行 起始分钟'));
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(within(grid).getAllByRole('row')).toHaveLength(rowsBefore + 1);
    expect(preview.textContent).toBe('第5行起始分钟应为整数');
    await user.keyboard('{Alt>}{Delete}{/Alt}');
    expect(within(grid).getAllByRole('row')).toHaveLength(rowsBefore);
    await user.click(within(main).getByLabelText('第1行 起始分钟'));
    await user.keyboard('{Control>}s{/Control}');
    await waitFor(
      async () => {
        const [r] = await db().select().from(customRefundRules).where(eq(customRefundRules.id, draftRow!.id));
        expect(r!.rows[1]).toMatchObject({ fromMin: 30, toMin: 120, feeRate: 200, minFee: 200 });
      },
      { timeout: 5_000 },
    );
  });

  it('publish a draft now from its row: it is in force and the old one 已失效', async () => {
    const changning = await districtId('长宁区');
    const now = new Date();
    const [d] = await db()
      .insert(customRefundRules)
      .values({ districtId: changning, rows: [{ fromMin: 0, toMin: null, refundable: 1, feeRate: 50, minFee: 0 }], status: 0, remark: '客户端发布测试', createdAt: now, updatedAt: now })
      .returning();
    const [old] = await db().select().from(customRefundRules).where(and(eq(customRefundRules.districtId, changning), eq(customRefundRules.status, 2)));
    await signIn(s, 'admin');
    saveDistrict(String(changning));
    visit(s, '/customSetting/refund-setting');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: `发布 #${d!.id}` }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog');
    await user.keyboard('{Enter}');
    await waitFor(async () => expect((await db().select().from(customRefundRules).where(eq(customRefundRules.id, d!.id)))[0]!.status).toBe(2), { timeout: 5_000 });
    expect((await db().select().from(customRefundRules).where(eq(customRefundRules.id, old!.id)))[0]!.status).toBe(3);
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    saveDistrict(null);
  });

  it('a published version opens read-only: no grid edits, no save', async () => {
    await signIn(s, 'manager');
    visit(s, '/customSetting/refund-setting');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const versions = await within(main).findByRole('table', { name: '退款规则版本' }, { timeout: 5_000 });
    const live = within(versions).getAllByRole('row').find((r) => r.textContent?.includes('生效中'))!;
    await user.click(within(live).getByRole('button', { name: /^查看/ }));
    expect(await within(main).findByText(/（只读）$/)).toBeTruthy();
    expect((within(main).getByLabelText('第1行 起始分钟') as HTMLInputElement).readOnly).toBe(true);
    expect(within(main).queryByRole('button', { name: /保存草稿/ })).toBeNull();
  });

  it('退款试算 answers from the server for the ladder in force', async () => {
    await signIn(s, 'manager');
    visit(s, '/customSetting/refund-setting');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const calc = await within(main).findByRole('form', { name: '退款试算' }, { timeout: 5_000 });
    await user.type(within(calc).getByLabelText('金额（元）'), '50');
    await user.type(within(calc).getByLabelText('距发车分钟'), '10{Enter}');
    expect((await within(calc).findByRole('status', { name: '试算结果' })).textContent).toMatch(/^50元·距发车10分钟 → 不可退/);
  });
});

describe('the palette', () => {
  it('Ctrl+K 退款试算 ‹金额› ‹分钟›: the answer in a toast, and 退款设置’s calculator filled with it', async () => {
    await signIn(s, 'manager');
    visit(s, '/customSetting/custom-base');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('退款试算');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('退款试算'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await within(dialog).findByText(/1\/2/);
    await user.keyboard('50');
    await user.keyboard('{Enter}');
    await within(dialog).findByText(/2\/2/);
    await user.keyboard('90');
    await user.keyboard('{Enter}');
    // 徐汇区's ladder in force is the default: 20% from 20 minutes to 2 hours.
    expect(await screen.findByText(/^50元·距发车90分钟 → 退40元（手续费10元）/, {}, { timeout: 8_000 })).toBeTruthy();
    const calc = await screen.findByRole('form', { name: '退款试算' }, { timeout: 8_000 });
    expect(window.location.pathname).toBe('/customSetting/refund-setting');
    expect((await within(calc).findByRole('status', { name: '试算结果' })).textContent).toMatch(/^50元·距发车90分钟 → 退40元/);
  });

  it('Ctrl+K 修改购票须知: the base form opens with the caret in 购票须知', async () => {
    await signIn(s, 'manager');
    visit(s, '/customSetting/refund-setting');
    const { user } = renderWithUser(<App />);
    await screen.findByRole('navigation', { name: '主菜单' }, { timeout: 5_000 });
    const { dialog } = await openPalette(user);
    await user.keyboard('修改购票须知');
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.textContent).toContain('修改购票须知'), { timeout: 5_000 });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement?.id).toBe('custom-base-notice'), { timeout: 8_000 });
  });
});

describe('协议设置', () => {
  it('the manager sees the district’s 定制公交 agreement text', async () => {
    await signIn(s, 'manager');
    visit(s, '/customSetting/agreement-setting');
    renderWithUser(<App />);
    const main = await screen.findByRole('main');
    expect(await within(main).findByDisplayValue(/徐汇区定制公交购票协议/, {}, { timeout: 5_000 })).toBeTruthy();
  });
});
