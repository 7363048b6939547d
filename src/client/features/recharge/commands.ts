import * as api from '../../../shared/api/recharge';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';
import { api as http } from '../../lib/api-client';
import { toast } from '../../lib/toast';

const orderNoArg = { name: 'orderNo', label: '订单号', kind: 'text' as const, placeholder: 'NFC20261128093000000123', validate: (v: string) => (v.trim() ? (v.trim().length > 40 ? '订单号不能超过40个字符' : null) : '请输入订单号') };
const GROUP = 'NFC充值';
/** The 可疑 queue: NFC充值记录 on 可疑, oldest first. */
export const suspectQueuePath = pagePath('recharge', 'recharge', { query: { writeState: 4, sort: 'createdDate,asc' } });

/**
 * The palette's NFC充值 commands. Those that need a dialog hand the order number to NFC充值记录
 * (`?action=…&orderNo=…`), which finds it and opens the detail, 核实 or 退款 there.
 */
export const rechargeCommands: Command[] = [
  {
    id: 'recharge.find',
    title: '查充值订单',
    group: GROUP,
    keywords: ['充值', '订单', 'NFC', '圈存', '卡号', 'chongzhi'],
    permission: api.RECHARGE_READ,
    page: pagePath('recharge', 'recharge'),
    args: [{ name: 'q', label: '订单号或卡号', kind: 'text', placeholder: '订单号 或 16位卡号', validate: (v) => (v.trim() ? (v.trim().length > 40 ? '不能超过40个字符' : null) : '请输入订单号或卡号') }],
    run: (ctx, a) => {
      const q = (a.q ?? '').trim();
      ctx.navigate(pagePath('recharge', 'recharge', { query: api.isCardNo(q) ? { cardNo: q } : { orderNo: q } }));
    },
  },
  {
    id: 'recharge.suspects',
    title: '可疑订单',
    group: GROUP,
    keywords: ['可疑', '充值', '核实', '写卡', 'keyi'],
    permission: api.RECHARGE_READ,
    page: pagePath('recharge', 'recharge'),
    // The queue is daily work: a chord of its own beside g r (the speed task (g)).
    hotkey: 'g>q',
    // The page opens the queue and puts the focus on its oldest order.
    run: (ctx) => ctx.navigate(pagePath('recharge', 'recharge', { action: 'suspect' })),
  },
  {
    id: 'recharge.requery',
    title: '补查',
    group: GROUP,
    keywords: ['补查', '充值', '卡中心', 'bucha'],
    permission: api.RECHARGE_RESOLVER,
    page: pagePath('recharge', 'recharge'),
    args: [orderNoArg],
    run: (ctx, a) => {
      const orderNo = (a.orderNo ?? '').trim();
      http
        .call(api.rechargePage, { query: { orderNo, size: 1 } })
        .then(async (page) => {
          const o = page.content[0];
          if (!o) return toast.error(`没有找到充值订单 ${orderNo}（仅能查询当前区域的订单）`);
          const r = await http.call(api.rechargeRequery, { body: { id: o.id } });
          (r.resolved ? toast.success : toast.info)(`补查 ${o.orderNo}：${r.message}`);
          ctx.changed(api.rechargeRequery);
          ctx.navigate(pagePath('recharge', 'recharge', { query: { orderNo } }));
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  },
  {
    id: 'recharge.resolve',
    title: '核实可疑订单',
    group: GROUP,
    keywords: ['核实', '可疑', '到账', '充值', 'heshi'],
    permission: api.RECHARGE_RESOLVER,
    page: pagePath('recharge', 'recharge'),
    args: [orderNoArg],
    run: (ctx, a) => ctx.navigate(pagePath('recharge', 'recharge', { action: 'resolve', query: { orderNo: (a.orderNo ?? '').trim() } })),
  },
  {
    id: 'recharge.refund',
    title: '充值退款',
    group: GROUP,
    keywords: ['退款', '充值', 'NFC', 'tuikuan'],
    permission: api.RECHARGE_REFUNDER,
    page: pagePath('recharge', 'recharge'),
    args: [orderNoArg],
    run: (ctx, a) => ctx.navigate(pagePath('recharge', 'recharge', { action: 'refund', query: { orderNo: (a.orderNo ?? '').trim() } })),
  },
  {
    id: 'recharge.export',
    title: '导出NFC充值记录（Excel）',
    group: GROUP,
    keywords: ['导出', '充值', 'excel', 'daochu'],
    permission: api.rechargeExport.permission,
    page: pagePath('recharge', 'recharge'),
    run: (ctx) => ctx.navigate(pagePath('recharge', 'recharge', { action: 'export' })),
  },
  {
    id: 'recharge.reconcileExport',
    title: '导出圈存日对账（待处理，Excel）',
    group: GROUP,
    keywords: ['导出', '对账', '圈存', 'excel', 'duizhang'],
    permission: api.rechargeReconcileExport.permission,
    page: pagePath('recharge', 'recharge'),
    run: (ctx) => ctx.navigate(pagePath('recharge', 'recharge', { action: 'reconcile-export' })),
  },
];
