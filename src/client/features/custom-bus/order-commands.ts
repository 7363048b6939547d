import { CUSTOM_CLASSES_CANCELLER, CUSTOM_READ, CUSTOM_REFUNDER } from '../../../shared/api/custom-bus/buttons';
import { classesPage } from '../../../shared/api/custom-bus/classes';
import { customClassesCancel, customOrderPageByBody } from '../../../shared/api/custom-bus/orders';
import { fenToYuan } from '../../../shared/domain/money';
import { addDays, shanghaiDate } from '../../../shared/domain/time';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { customOrderDetailPath, customOrderListPath, customOrderPhone } from './order-paths';

const GROUP = '定制公交';

/** The area's classes that can still be cancelled (not departed, not cancelled) in the next 62 days, soonest first. */
const cancellableClasses = async () => {
  const today = shanghaiDate(new Date());
  const page = await api.call(classesPage, { query: { page: 0, size: 500, dateFrom: today, dateTo: addDays(today, 61), sort: 'departAt,asc' } }, { silent: true });
  const now = Date.now();
  return page.content
    .filter((c) => c.status <= 2 && Date.parse(c.departAt) > now)
    .map((c) => ({
      value: String(c.id),
      label: `${c.departDate} ${c.time} ${c.lineName}`,
      subtitle: `已售 ${c.sold} 座 · ${c.lineNo}`,
      keywords: [c.lineNo, c.lineName, c.departDate],
    }));
};
const isPhone = (v: string) => /^1\d{10}$/.test(v.replace(/[\s-]/g, ''));

/** This part's palette commands (second wave §5's Palette row): 查定制订单, 定制退票, 取消班次. */
export const orderCommands: readonly Command[] = [
  {
    // A phone goes to the list through memory (never the address); an order number as its filter.
    id: 'customOrder.find',
    title: '查定制订单',
    group: GROUP,
    keywords: ['定制', '订单', '查询', '手机号', 'dingzhi', 'dingdan', 'cdzdd'],
    permission: CUSTOM_READ,
    page: customOrderListPath(),
    args: [{ name: 'q', label: '订单号或手机号', kind: 'text', placeholder: 'CB2612… 或 11 位手机号', validate: (v) => (!v.trim() ? '请输入订单号或手机号' : v.trim().length > 40 ? '订单号不能超过40个字符' : null) }],
    run: (ctx, a) => {
      const q = (a.q ?? '').trim();
      if (isPhone(q)) {
        customOrderPhone.handOff(q.replace(/[\s-]/g, ''));
        ctx.navigate(customOrderListPath());
      } else ctx.navigate(customOrderListPath(q));
    },
  },
  {
    // The keyboard task "refund a ticket during a call": the order by its number, its detail with the
    // tickets and what each refunds now, 退票 open on it.
    id: 'customOrder.refund',
    title: '定制退票',
    group: GROUP,
    keywords: ['定制', '退票', '退款', 'dingzhi', 'tuipiao', 'dztp'],
    permission: CUSTOM_REFUNDER,
    page: customOrderListPath(),
    args: [{ name: 'orderNo', label: '订单号', kind: 'text', placeholder: 'CB2612…', validate: (v) => (!v.trim() ? '请输入订单号' : v.trim().length > 40 ? '订单号不能超过40个字符' : null) }],
    run: (ctx, a) => {
      const orderNo = (a.orderNo ?? '').trim();
      api
        .call(customOrderPageByBody, { body: { page: 0, size: 1, orderNo } }, { silent: true })
        .then((page) => {
          const o = page.content[0];
          if (!o) {
            toast.error(`未找到定制订单 ${orderNo}`);
            return;
          }
          ctx.navigate(customOrderDetailPath(o.id, o.status === 1 || o.status === 3));
        })
        .catch(() => toast.error('查询订单失败，请稍后重试'));
    },
  },
  {
    // 取消班次 ‹班次› ‹原因›: the class picked from the area's cancellable ones (date, time, line, sold);
    // every paid ticket refunded in full; the reason is the confirmation.
    id: 'customClasses.cancel',
    title: '取消班次',
    group: GROUP,
    keywords: ['定制', '班次', '取消', 'quxiao', 'banci', 'qxbc'],
    permission: CUSTOM_CLASSES_CANCELLER,
    page: customOrderListPath(),
    args: [
      { name: 'id', label: '选择班次（未发车，已售座位数）', kind: 'choice', options: cancellableClasses },
      { name: 'reason', label: '取消原因（将全额退款给已购票乘客）', kind: 'text', placeholder: '如 车辆故障', validate: (v) => (v.trim().length < 2 ? '取消原因至少2个字' : v.trim().length > 100 ? '取消原因不能超过100个字' : null) },
    ],
    run: (ctx, a) => {
      api
        .call(customClassesCancel, { body: { id: Number(a.id), reason: (a.reason ?? '').trim(), idempotencyKey: crypto.randomUUID() } })
        .then((r) => {
          toast.success(r.replayed ? `班次 ${r.id} 此前已取消` : `班次 ${r.id} 已取消，退票 ${r.refundedTickets} 张，全额退款 ${fenToYuan(r.refundedAmount)} 元`);
          ctx.changed(customClassesCancel);
        })
        // The refusal (班次已发车，不能取消) is in the toast.
        .catch(() => undefined);
    },
  },
];
