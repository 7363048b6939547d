import { discount } from '../../../../shared/api';
import { fenToYuan } from '../../../../shared/domain/money';
import { Button } from '../../../components/button';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';
import { useApi } from '../../../lib/use-api';
import { ORDER_FILTERS } from '../components/discount-filters';
import { ticketTypeLabel } from '../../../../shared/api/card';
import { useExport } from '../../../components/use-export';

const columns: ListColumn<typeof discount.countPage>[] = [
  { id: 'productName', header: '产品', fixed: true, cell: (r) => <span className="font-medium text-gray-800">{r.productName}</span> },
  { id: 'ticketType', header: '票种', cell: (r) => ticketTypeLabel(r.ticketType) },
  { id: 'orders', header: '订单数', sort: 'orders', align: 'right', cell: (r) => r.orders, className: 'tabular-nums' },
  { id: 'paid', header: '已支付（笔）', align: 'right', cell: (r) => r.paid, className: 'tabular-nums' },
  { id: 'paidAmount', header: '支付金额（元）', align: 'right', cell: (r) => fenToYuan(r.paidAmount), className: 'tabular-nums' },
  { id: 'refunded', header: '已退款（笔）', align: 'right', cell: (r) => r.refunded, className: 'tabular-nums' },
  { id: 'refundedAmount', header: '退款金额（元）', align: 'right', cell: (r) => fenToYuan(r.refundedAmount), className: 'tabular-nums' },
];

/**
 * 订单统计 (SpecialCodeCount): the orders of the same filters as 特殊码列表, counted per product,
 * with the sums over all of them; 导出 Excel exports the counts.
 */
export function SpecialCodeCountPage() {
  const list = useResourceList({ endpoint: discount.countPage, filters: ORDER_FILTERS });
  const { filterQuery } = list;
  const totals = useApi(discount.countTotal, { query: filterQuery });
  const exporter = useExport(['specialCode', 'special-code-count', 'export'], discount.downloadTotal, filterQuery, '优惠卡订单统计', '已导出订单统计');

  const t = totals.data;
  return (
    <ScreenSection title="订单统计">
      {t && (
        <p className="mb-3 text-sm text-gray-700">
          共 {t.products} 种产品，{t.orders} 笔订单，已支付 {t.paid} 笔 {fenToYuan(t.paidAmount)} 元，已退款 {t.refunded} 笔 {fenToYuan(t.refundedAmount)} 元
        </p>
      )}
      <ResourceTable
        list={list}
        id="discount.counts"
        label="优惠卡订单统计"
        columns={columns}
        rowKey={(r) => r.productId}
        toolbar={
          <Button className="h-8" disabled={exporter.exporting} onClick={() => void exporter.run()}>
            {exporter.exporting ? '导出中…' : '导出 Excel'}
          </Button>
        }
      />
    </ScreenSection>
  );
}
