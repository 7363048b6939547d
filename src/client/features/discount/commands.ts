import { discount } from '../../../shared/api';
import { ticketTypeLabel } from '../../../shared/api/card';
import { fenToYuan } from '../../../shared/domain/money';
import { pagePath } from '../../../shared/modules';
import type { EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { recordActions } from '../../components/resource/row-action';
import { orderActions, orderListPath } from './order-actions';
import { toast } from '../../lib/toast';
import { api } from '../../lib/api-client';
import { queryText } from '../../lib/http';

/** The area's products on sale (1) or off sale (0), as palette choices: name, ticket type and price. */
const productsIn = (status: 0 | 1) => async () => {
  const page = await api.call(discount.productPage, { query: { page: 0, size: 100, status: queryText(status) } }, { silent: true });
  return page.content.map((p) => ({
    value: String(p.id),
    label: `${p.name}（${ticketTypeLabel(p.ticketType)} ${fenToYuan(p.price)} 元）`,
    keywords: [p.name, p.districtName ?? ''],
  }));
};

/**
 * 上架 / 下架 from the palette: choosing the product in the palette is the confirmation (the list's
 * buttons ask in a dialog instead); the same call, refusal and toast, then 规则设置 shows the result.
 */
function statusCommand(id: string, title: string, to: 0 | 1, keywords: string[]): Command {
  const done = to ? '上架' : '下架';
  return {
    id,
    title,
    group: '特殊码管理',
    keywords,
    permission: discount.productStatus.permission,
    page: pagePath('specialCode', 'rule-setting'),
    args: [{ name: 'id', label: `选择${to ? '已下架' : '在售'}的优惠卡`, kind: 'choice', options: productsIn(to ? 0 : 1) }],
    run: (ctx, a) => {
      api
        .call(discount.productStatus, { query: { id: Number(a.id), status: queryText(to) } })
        .then((p) => {
          toast.success(`优惠卡「${p.name}」（${p.districtName ?? '未知区域'}）已${done}`);
          ctx.changed(discount.productStatus);
          ctx.navigate(pagePath('specialCode', 'rule-setting', { query: { status: to } }));
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  };
}

export const discountCommands: Command[] = [
  {
    // A command cannot hold a dialog: it hands the order number to 特殊码列表, which filters to the
    // order, finds it and opens the refund (or, for an order that cannot be refunded, its detail).
    id: 'discount.refund',
    title: '订单退款',
    group: '特殊码管理',
    keywords: ['退款', '订单', '特殊码', '优惠卡', 'refund', 'tuikuan'],
    permission: discount.discountOrderRefund.permission,
    page: pagePath('specialCode', 'special-code-list'),
    args: [{ name: 'orderNo', label: '订单号', kind: 'text', placeholder: 'DC202609180000099', validate: (v) => (v.trim() ? (v.trim().length > 40 ? '订单号不能超过40个字符' : null) : '请输入订单号') }],
    run: (ctx, a) => ctx.navigate(pagePath('specialCode', 'special-code-list', { action: 'refund', query: { orderNo: (a.orderNo ?? '').trim() } })),
  },
  statusCommand('discount.on-sale', '上架优惠卡', 1, ['上架', '优惠卡', '特殊码', 'shangjia']),
  statusCommand('discount.off-sale', '下架优惠卡', 0, ['下架', '优惠卡', '特殊码', 'xiajia']),
  {
    id: 'discount.add-rule',
    title: '新增优惠卡规则',
    group: '特殊码管理',
    keywords: ['新增', '优惠卡', '规则', '特殊码', 'xinzeng'],
    permission: discount.productSave.permission,
    page: pagePath('specialCode', 'rule-edit'),
    run: (ctx) => ctx.navigate(pagePath('specialCode', 'rule-edit')),
  },
  {
    id: 'discount.export-orders',
    title: '导出特殊码订单（Excel）',
    group: '特殊码管理',
    keywords: ['导出', '订单', 'excel', 'daochu'],
    permission: discount.downloadOrder.permission,
    page: pagePath('specialCode', 'special-code-list'),
    run: (ctx) => ctx.navigate(pagePath('specialCode', 'special-code-list', { action: 'export' })),
  },
];

/**
 * A typed or pasted order number (`DC2026…`) is offered as the order, with its actions (退款, Alt+T)
 * under it: 特殊码列表 filtered to it, where the refund opens for it.
 */
export const discountSources: EntitySource[] = [
  {
    id: 'orders',
    group: '订单',
    permission: discount.discountOrderPage.permission,
    page: pagePath('specialCode', 'special-code-list'),
    // A package order (`PK…`) is 套餐购买's own source's, a 定制公交 order (`CB…`) 定制公交's (their refunds are other modules').
    lookup: (s) => (s.kind === 'order' && !/^(PK|CB)/.test(s.value) ? { key: `order:${s.value}`, title: `订单 ${s.value}`, path: orderListPath(s.value), actions: recordActions(orderActions, { orderNo: s.value }) } : null),
  },
];
