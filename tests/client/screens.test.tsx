import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/client/app/app';
import { SCREENS } from '../../src/client/app/features';
import { MODULES } from '../../src/shared/api';
import { clientSuite, renderWithUser, visit } from '../support/render';
import { signIn } from '../support/request-log';
import type { TestServer } from '../support/test-server';

/**
 * Every built screen of every module, rendered by the real App against the real server as the super
 * user: it shows the server's rows, and each dialog it offers opens and closes with Esc.
 */
let s: TestServer;
clientSuite((server) => {
  s = server;
});

const built = MODULES.flatMap((m) =>
  'menu' in m ? m.menu.pages.map((p) => ({ ...p, path: `/${m.menu.id}/${p.key}` })) : [],
);

/** What each screen must show from the server's data: a row the demo city certainly holds. */
const EXPECTED: Record<keyof typeof SCREENS, string | RegExp> = {
  ListUser: 'manager',
  ListRecharge: /NFC\d{14}/,
  ListRoleGroup: '客服坐席组',
  ListSysLog: '登录成功',
  ListAgreement: /协议|政策/,
  ListDistrict: '黄浦区',
  ListStation: /路/,
  ListStationQrCode: /pages\/station\/index\?scene=/,
  GpsSort: /选择一条线路/,
  BaseSetting: '城市中心纬度',
  About: /面向公交运营单位工作人员的后台管理控制台/,
  ListVersion: '2026 秋季线网',
  ListBusLine: /\d+路/,
  // Opened without ?id= the detail screens say what is missing (tests/client/bus-lines.test.tsx opens real ones).
  BusLine: '没有指定线路。',
  AddBusLine: '线路编号',
  LinePath: /线路不存在/,
  ListSubLine: /路(区间|大站快车)/,
  AddSubLine: '所属线路',
  SubLineStation: /子线路不存在/,
  CardView: /输入卡号、身份证号或手机号查询卡片/,
  ListBusUser: /\d{3}\*{4}\d{4}/,
  ListYcUser: /异常：/,
  ListSpecialCode: /共 \d+ 笔订单，已支付 \d+ 笔/,
  SpecialCodeCount: /共 \d+ 种产品，\d+ 笔订单/,
  RuleSetting: /共 \d+ 种，在售 \d+，已下架 \d+/,
  // Opened without ?id= it is a new rule (tests/client/discount-screens.test.tsx saves real ones).
  RuleEdit: /购买后多少天内有效/,
  // The super user starts on 全部区域: the agreement belongs to one area.
  SpecialCodeAgreement: /请先在顶部选择区域/,
  ListFamilyBind: /共 \d+ 条，已绑定 \d+/,
  ListRenewLog: /续期 \d+ 次，合计 [\d.]+ 元/,
  CardSubscription: '卡类型字典',
  ListCard: /^\d{16}$/m,
  ListOrder: /共 \d+ 次乘车，金额 [\d.]+ 元/,
  OrderTotal: /单次票 \d+ 人次（[\d.]+%）/,
  ListNotice: /共 \d+ 条 · 草稿 \d+ · 待发布 \d+/,
  PackageSummary: /售出 \d+ 份 [\d.]+ 元/,
  ListPackage: /共 \d+ 个套餐 · 在售 \d+/,
  ListPackageOrder: /共 \d+ 笔，实收 [\d.]+ 元/,
  PackageAgreement: /请先在顶部选择区域/,
  // Opened without ?id= it is a new package (tests/client/package-pay.test.tsx saves real ones).
  AddPackage: /支付当天算第1天/,
  PackageOrderDetail: /地址中的订单编号无效/,
  ListRechargeManage: /充100送5元/,
  AddRecharge: /不超过充值金额的50%/,
  ListRechargeOrder: /共 \d+ 笔 · 已到账 \d+ 笔/,
  RechargeSetting: /单笔调账上限/,
  RechargeAgreement: /请先在顶部选择区域/,
  ListCustomStation: /共 \d+ 个站点 · 启用 \d+/,
  ListCustomLine: /共 \d+ 条线路 · 已上架 \d+/,
  AddCustomLine: /往返：早上行、晚下行/,
  // Opened without a line: it says so and links back to the list.
  CustomLinePath: /线路不存在，或不属于当前区域/,
  ListClasses: /共 \d+ 个班次 · 售票中 \d+/,
  AddClasses: /批量排班/,
  ListOrderRecord: /共 \d+ 笔 \d+ 张票，实收 [\d.]+ 元/,
  OrderDetail: /地址中的订单编号无效/,
  CustomSummary: /\d+ 条线路 \d+ 天 · 班次 \d+ · 座位 \d+/,
  ListCar: /共 \d+ 辆 · 可用 \d+（\d+ 座）/,
  // Opened without ?id= it is a new car (tests/client/custom-fleet.test.tsx saves real ones).
  AddCar: /班次的发行数量不能超过它/,
  ListDriver: /\d{3}\*{4}\d{4}/,
  AddDriver: /即驾驶证号（只存一次）/,
  ListCustom: /共 \d+ 条需求 · 未开通 \d+/,
  ListCustomRecord: /共 \d+ 条 · \d+ 位乘客 · 待匹配 \d+/,
  CustomBase: /基础设置按区域保存/,
  RefundSetting: /退款规则按区域设置/,
  AgreementSetting: /请先在顶部选择区域/,
  ListCardVerify: /共 \d+ 条 · 待审核 \d+/,
  CardVerifyConfig: /提前\d+月 · 有效\d+月/,
  ListActivity: /工作日早高峰8折/,
  DiscountLimit: '全部活动',
  ListOperateRecord: /^新增活动「/,
  ListHandleCard: /共 \d+ 条 · 待审核 \d+（预检全绿 \d+，审核中 \d+）/,
  HandleCardSetting: /办卡须知：.*线上办理须知/,
  // Opened without ?id= it says where to start (tests/client/handle-card-apply.test.tsx opens a real one).
  HandleCardRuleEdit: '请从办卡设置中选择要编辑办卡须知的卡类型。',
  ListFeedback: /共 \d+ 条 · 未处理 \d+ · 处理中 \d+ · 已处理 \d+ · 不处理 \d+ · 超时 \d+/,
  HelpCenter: '如何开通乘车码？',
};

describe('every built screen', () => {
  it('is covered by this test', () => {
    expect(built.map((p) => p.component).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  const SCREEN_TITLE: Record<string, string> = { '/specialCode/rule-edit': '新增规则' };
  it.each(built.map((p) => [p.title, p] as const))('%s renders the server’s data at its path', async (_title, page) => {
    await signIn(s, 'admin');
    visit(s, page.path);
    render(<App />);
    const crumbs = await screen.findByRole('navigation', { name: '面包屑' });
    // A page opened without its record names itself for what it does (decision 142): 规则编辑 without
    // a rule is 新增规则. Waiting for the catalogue's title raced the page's own.
    await waitFor(() => expect(within(crumbs).getByRole('listitem', { current: 'page' }).textContent).toBe(SCREEN_TITLE[page.path] ?? page.title));
    const main = screen.getByRole('main');
    const expected = EXPECTED[page.component as keyof typeof SCREENS];
    expect((await within(main).findAllByText(expected, {}, { timeout: 5_000 })).length).toBeGreaterThan(0);
    expect(within(main).queryByText('模块尚未上线')).toBeNull();
  });
});

describe('every dialog of the built screens', () => {
  const dialogs: { path: string; open: RegExp; title: RegExp }[] = [
    { path: '/user/user-list', open: /^＋ 新增/, title: /新增账号/ },
    { path: '/user/user-list', open: /^编辑 manager$/, title: /编辑账号/ },
    { path: '/user/role-group', open: /^编辑权限 客服坐席组$/, title: /客服坐席组/ },
    { path: '/user/sys-log', open: /^查看 .* 的详情$/, title: /详情/ },
    { path: '/settings/agreements', open: /^编辑 /, title: /编辑协议/ },
  ];

  it.each(dialogs.map((d) => [`${d.path} ${d.open.source}`, d] as const))('%s opens, and Esc closes it', async (_name, d) => {
    await signIn(s, 'admin');
    visit(s, d.path);
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    const [button] = await within(main).findAllByRole('button', { name: d.open }, { timeout: 5_000 });
    if (!button) throw new Error(`no button ${d.open} on ${d.path}`);
    await user.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText(d.title).length).toBeGreaterThan(0);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('a menu’s own address', () => {
  it('/user opens its first page instead of 404', async () => {
    await signIn(s, 'manager');
    visit(s, '/user');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/user/user-list'));
    const crumbs = await screen.findByRole('navigation', { name: '面包屑' });
    await waitFor(() => expect(within(crumbs).getByRole('listitem', { current: 'page' }).textContent).toBe('账号列表'));
  });
});

describe('the account dialog’s words', () => {
  it('says 手机号 and 可切换区域, in Chinese only', async () => {
    await signIn(s, 'admin');
    visit(s, '/user/user-list');
    const { user } = renderWithUser(<App />);
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: /^＋ 新增/ }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: '新增账号' });
    expect(within(dialog).getByLabelText('手机号')).toBeTruthy();
    expect(within(dialog).getByText('可切换区域')).toBeTruthy();
    expect(dialog.textContent).not.toContain('openDistrict');
  });
});
