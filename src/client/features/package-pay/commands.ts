import { PACKAGE_EDITOR, PACKAGE_READ, PACKAGE_REFUNDER, PACKAGE_STATUS_MOVER, type PackageStatus, packageOrderPageByBody, packagePage, packageUpdateStatus } from '../../../shared/api/package-pay';
import { fenToYuan } from '../../../shared/domain/money';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { queryText } from '../../lib/http';
import { toast } from '../../lib/toast';
import { editPath, managePath, orderDetailPath, orderListPath, orderPhone } from './paths';

const GROUP = '套餐购买';
const isPhone = (v: string) => /^1\d{10}$/.test(v.replace(/[\s-]/g, ''));

/** The area's packages in these statuses, as palette choices. */
const packagesIn = (statuses: readonly PackageStatus[]) => async () => {
  const pages = await Promise.all(statuses.map((status) => api.call(packagePage, { query: { page: 0, size: 200, status: queryText(status) } }, { silent: true })));
  return pages
    .flatMap((p) => p.content)
    .map((p) => ({ value: `${p.id}:${p.status}:${p.rowVersion}`, label: `${p.name}（${fenToYuan(p.price)} 元 ${p.rides} 次，${p.districtName ?? ''}）`, keywords: [p.name] }));
};

/**
 * 上架套餐 ‹已下架或草稿› and 下架套餐 ‹在售›: choosing the package is the confirmation (the list's buttons
 * ask in a dialog); the same call and refusal (请先设置套餐协议再上架), then 套餐管理 shows the result.
 */
function moveCommand(id: string, title: string, from: readonly PackageStatus[], to: PackageStatus, keywords: string[]): Command {
  return {
    id,
    title,
    group: GROUP,
    keywords,
    permission: PACKAGE_STATUS_MOVER,
    page: managePath(),
    args: [{ name: 'pkg', label: to === 1 ? '选择已下架或草稿的套餐' : '选择在售的套餐', kind: 'choice', options: packagesIn(from) }],
    run: (ctx, a) => {
      const [pid, fromStatus, rowVersion] = (a.pkg ?? '').split(':').map(Number);
      api
        .call(packageUpdateStatus, { body: { id: pid!, fromStatus: fromStatus as PackageStatus, toStatus: to, rowVersion: rowVersion! } })
        .then((p) => {
          toast.success(`套餐「${p.name}」已${to === 1 ? '上架' : '下架'}`);
          ctx.changed(packageUpdateStatus);
          ctx.navigate(managePath(to));
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  };
}

export const packageCommands: Command[] = [
  {
    id: 'package.add',
    title: '新增套餐',
    group: GROUP,
    keywords: ['新增', '套餐', 'xinzeng', 'taocan'],
    permission: PACKAGE_EDITOR,
    page: editPath(),
    run: (ctx) => ctx.navigate(editPath()),
  },
  moveCommand('package.publish', '上架套餐', [2, 0], 1, ['上架', '套餐', 'shangjia', 'taocan']),
  moveCommand('package.unpublish', '下架套餐', [1], 2, ['下架', '套餐', 'xiajia', 'taocan']),
  {
    // A phone goes to the list through memory (never the address); an order number as its filter.
    id: 'package.find-order',
    title: '查套餐订单',
    group: GROUP,
    keywords: ['套餐', '订单', '查询', '手机号', 'taocan', 'dingdan'],
    permission: PACKAGE_READ,
    page: orderListPath(),
    args: [{ name: 'q', label: '订单号或手机号', kind: 'text', placeholder: 'PK2026… 或 11 位手机号', validate: (v) => (!v.trim() ? '请输入订单号或手机号' : v.trim().length > 40 ? '订单号不能超过40个字符' : null) }],
    run: (ctx, a) => {
      const q = (a.q ?? '').trim();
      if (isPhone(q)) {
        orderPhone.handOff(q.replace(/[\s-]/g, ''));
        ctx.navigate(orderListPath());
      } else ctx.navigate(orderListPath(q));
    },
  },
  {
    // The keyboard task: the order by its number, its detail with the usages, the refund open on it.
    id: 'package.refund',
    title: '套餐退款',
    group: GROUP,
    keywords: ['套餐', '退款', 'tuikuan', 'taocan'],
    permission: PACKAGE_REFUNDER,
    page: orderListPath(),
    args: [{ name: 'orderNo', label: '订单号', kind: 'text', placeholder: 'PK20261128…', validate: (v) => (!v.trim() ? '请输入订单号' : v.trim().length > 40 ? '订单号不能超过40个字符' : null) }],
    run: (ctx, a) => {
      const orderNo = (a.orderNo ?? '').trim();
      api
        .call(packageOrderPageByBody, { body: { page: 0, size: 1, orderNo } }, { silent: true })
        .then((page) => {
          const o = page.content[0];
          if (!o) {
            toast.error(`未找到套餐订单 ${orderNo}`);
            return;
          }
          ctx.navigate(orderDetailPath(o.id, o.status === 1));
        })
        .catch(() => toast.error('查询订单失败，请稍后重试'));
    },
  },
];
