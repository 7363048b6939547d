import { ADJUST_MAKER, FREEZER, REFUNDER, WALLET_READ, adjust, adjustCheck, walletPageByBody, walletStatus } from '../../../shared/api/wallet';
import { fenToYuan } from '../../../shared/domain/money';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { walletLookup, yuanToFenText } from './paths';

/** The page the commands declare (the palette offers them by it); the tab travels in the address. */
const MANAGE = pagePath('rechargeable', 'recharge-manage');
const WALLETS = pagePath('rechargeable', 'recharge-manage', { query: { tab: 'wallet' } });
const QUEUE = pagePath('rechargeable', 'recharge-manage', { action: 'check', query: { tab: 'adjust', status: 0 } });
const digits = (s: string) => s.replace(/[\s-]/g, '');

/** The one wallet of a phone (the blind index: exact only), in a POST body so it never sits in a URL. */
async function walletByPhone(phone: string) {
  const page = await api.call(walletPageByBody, { body: { phone: digits(phone), size: 1 } });
  const w = page.content[0];
  if (!w) toast.error(`没有找到手机号 ${phone.slice(0, 3)}****${phone.slice(-4)} 的钱包（仅能查询当前区域）`);
  return w ?? null;
}

const PHONE_ARG = { name: 'phone', label: '手机号', kind: 'text', placeholder: '13800138000' } as const;

/**
 * 储值管理's palette (second wave §9): 查钱包 ‹手机号|卡号›, 储值退款 ‹订单号›, 冻结钱包 ‹手机号› ‹原因›,
 * 人工调账 ‹手机号› ‹±金额› ‹原因›, 待复核调账. Typing the reason (and the amount) in the palette is
 * the decision, as for the notices' commands; 人工调账 only files a request a second person checks.
 */
export const rechargeableCommands: Command[] = [
  {
    id: 'wallet.lookup',
    title: '查钱包（手机号或卡号）',
    group: '储值管理',
    keywords: ['钱包', '储值', '余额', 'wallet', 'qianbao'],
    permission: WALLET_READ,
    page: MANAGE,
    args: [{ name: 'q', label: '手机号或卡号', kind: 'text', placeholder: '13800138000' }],
    // Through memory: a phone never goes into the address.
    run: (ctx, a) => {
      walletLookup.handOff(a.q ?? '');
      ctx.navigate(WALLETS);
    },
  },
  {
    id: 'wallet.refund',
    title: '储值退款',
    group: '储值管理',
    keywords: ['退款', '储值', 'refund', 'tuikuan'],
    permission: REFUNDER,
    page: pagePath('rechargeable', 'recharge-order'),
    args: [{ name: 'orderNo', label: '订单号', kind: 'text', placeholder: 'W20261128…' }],
    run: (ctx, a) => ctx.navigate(pagePath('rechargeable', 'recharge-order', { action: 'refund', query: { orderNo: (a.orderNo ?? '').trim() } })),
  },
  {
    id: 'wallet.freeze',
    title: '冻结钱包',
    group: '储值管理',
    keywords: ['冻结', '钱包', 'freeze', 'dongjie'],
    permission: FREEZER,
    page: MANAGE,
    args: [PHONE_ARG, { name: 'reason', label: '冻结原因', kind: 'text', placeholder: '乘客挂失' }],
    run: (ctx, a) => {
      void (async () => {
        const w = await walletByPhone(a.phone ?? '');
        if (!w) return;
        const done = await api.call(walletStatus, { body: { id: w.id, fromStatus: w.status, toStatus: 2, reason: a.reason ?? '' } });
        toast.success(`钱包 ${done.riderPhone} 已冻结`);
        ctx.changed(walletStatus);
        walletLookup.handOff(digits(a.phone ?? ''));
        ctx.navigate(WALLETS);
      })().catch(() => undefined);
    },
  },
  {
    id: 'wallet.adjust',
    title: '人工调账',
    group: '储值管理',
    keywords: ['调账', '补款', '扣回', 'adjust', 'tiaozhang'],
    permission: ADJUST_MAKER,
    page: MANAGE,
    args: [PHONE_ARG, { name: 'amount', label: '金额（元，正数补入，负数扣回）', kind: 'text', placeholder: '5 或 -3.50' }, { name: 'reason', label: '原因（至少10个字）', kind: 'text' }],
    run: (ctx, a) => {
      const delta = yuanToFenText(a.amount ?? '');
      if (Number.isNaN(delta) || delta === 0) {
        toast.error('请输入调账金额（元），如 5 或 -3.50');
        return;
      }
      void (async () => {
        const w = await walletByPhone(a.phone ?? '');
        if (!w) return;
        const r = await api.call(adjust, { body: { walletId: w.id, bucket: 1, delta, reason: a.reason ?? '', idempotencyKey: crypto.randomUUID() } });
        toast.success(`已提交人工调账 ${delta > 0 ? '+' : '−'}${fenToYuan(Math.abs(r.adjustment.delta))} 元（${w.riderPhone}），待他人复核`);
        ctx.changed(adjust);
        ctx.navigate(pagePath('rechargeable', 'recharge-manage', { query: { tab: 'adjust', status: 0 } }));
      })().catch(() => undefined);
    },
  },
  {
    id: 'wallet.adjustQueue',
    title: '待复核调账',
    group: '储值管理',
    keywords: ['复核', '调账', '待复核', 'check', 'fuhe'],
    // Makers watch their own requests there too; only a checker's keys act on them.
    permission: adjustCheck.permission,
    page: MANAGE,
    // The checker's daily queue: a chord of its own beside g w (m, 人工调账; the speed task (h)).
    hotkey: 'g>m',
    // `check`: the queue puts the focus on the oldest request the account may decide.
    run: (ctx) => ctx.navigate(QUEUE),
  },
  // 导出 of each tab: the tab's list runs it (`?action=export` on whichever tab the address names).
  ...(
    [
      ['plan', '储值档位', 'dangwei'],
      ['wallet', '用户钱包', 'qianbao'],
      ['adjust', '人工调账', 'tiaozhang'],
    ] as const
  ).map(
    ([tab, label, pinyin]): Command => ({
      id: `wallet.export.${tab}`,
      title: `导出${label}（Excel）`,
      group: '储值管理',
      keywords: ['导出', label, 'excel', 'daochu', pinyin],
      permission: WALLET_READ,
      page: MANAGE,
      run: (ctx) => ctx.navigate(pagePath('rechargeable', 'recharge-manage', { action: 'export', query: { tab } })),
    }),
  ),
];
