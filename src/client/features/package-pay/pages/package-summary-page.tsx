import { PACKAGE_STATUS, packagePage, packageSummaryExport, packageSummaryHealth, packageSummaryPage, packageSummaryTotal } from '../../../../shared/api/package-pay';
import { fenToYuan } from '../../../../shared/domain/money';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, optionsFrom, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useApi } from '../../../lib/use-api';

const columns: ListColumn<typeof packageSummaryPage>[] = [
  { id: 'day', header: '日期', sort: 'day', fixed: true, cell: (r) => r.day, className: 'tabular-nums' },
  { id: 'packageName', header: '套餐', cell: (r) => r.packageName },
  { id: 'sold', header: '售出（份）', align: 'right', cell: (r) => r.sold, className: 'tabular-nums' },
  { id: 'amount', header: '销售额（元）', align: 'right', cell: (r) => fenToYuan(r.amount), className: 'tabular-nums' },
  { id: 'refunds', header: '退款（笔）', align: 'right', cell: (r) => r.refunds, className: 'tabular-nums' },
  { id: 'refundAmount', header: '退款金额（元）', align: 'right', cell: (r) => fenToYuan(r.refundAmount), className: 'tabular-nums' },
  { id: 'ridesUsed', header: '使用次数', align: 'right', cell: (r) => r.ridesUsed, className: 'tabular-nums' },
];

/** ‰ as a discount (800 → 8.0折), or — without data. */
const zhe = (permille: number | null) => (permille === null ? '—' : `${(permille / 100).toFixed(1)}折`);
const share = (permille: number | null) => (permille === null ? '—' : `${(permille / 10).toFixed(1)}%`);

/**
 * ★ 套餐体检: whether each package gives the discount it was meant to. What its buyers paid against
 * the single fares of the rides they took, the rides that expired unused, the share of finished
 * orders whose buyer paid more than singles would have cost, and a flag when a fully used package
 * gives more off than its price meant.
 */
function PackageHealth({ packageId }: { packageId: string }) {
  const health = useApi(packageSummaryHealth, { query: packageId ? { packageId } : {} });
  const rows = health.data?.rows ?? [];
  return (
    <section aria-label="套餐体检" className="mt-6 rounded border border-gray-200 bg-white p-4">
      <h3 className="mb-1 text-base font-medium text-gray-900">套餐体检</h3>
      <p className="mb-3 text-xs text-gray-600">实际折扣 = 实收 ÷ 所乘线路单程票价合计；用满折扣按乘客实际所乘线路的平均票价计算，比设定折扣低 0.5 折以上即标为“让利过多”。</p>
      {!health.data ? (
        <p role="status" className="text-sm text-gray-600">
          {health.error ? '无法加载套餐体检' : '加载中…'}
        </p>
      ) : (
        <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label="套餐体检（可横向滚动）">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-gray-600">
                <th className="py-1">套餐</th>
                <th>状态</th>
                <th className="text-right">订单</th>
                <th className="text-right">实收（元）</th>
                <th className="text-right">单程合计（元）</th>
                <th className="text-right">每次实付（元）</th>
                <th className="text-right">实际折扣</th>
                <th className="text-right">设定折扣</th>
                <th className="text-right">用满折扣</th>
                <th className="text-right">过期未用（次）</th>
                <th className="text-right">吃亏乘客</th>
                <th>提示</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((h) => (
                <tr key={h.packageId} className="border-t border-gray-100 tabular-nums">
                  <td className="py-1">{h.packageName}</td>
                  <td>
                    <FlowBadge flow={PACKAGE_STATUS} code={h.status} />
                  </td>
                  <td className="text-right">{h.orders}</td>
                  <td className="text-right">{fenToYuan(h.paid)}</td>
                  <td className="text-right">{fenToYuan(h.wouldPay)}</td>
                  <td className="text-right">{h.paidPerRide === null ? '—' : fenToYuan(h.paidPerRide)}</td>
                  <td className="text-right">{zhe(h.realRate)}</td>
                  <td className="text-right">{zhe(h.intendedRate)}</td>
                  <td className="text-right">{zhe(h.fullUseRate)}</td>
                  <td className="text-right">{h.breakageRides}</td>
                  <td className="text-right" title={`已结束 ${h.finished} 笔`}>
                    {share(h.lostShare)}
                  </td>
                  <td>{h.undercut ? <span className="rounded bg-red-50 px-1 text-red-700">让利过多</span> : h.orders === 0 ? <span className="text-gray-500">暂无订单</span> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** 套餐汇总 (PackageSummary): per package and day, sold, amount, refunds and rides used; its export; 套餐体检 below. */
export function PackageSummaryPage() {
  const list = useResourceList({
    endpoint: packageSummaryPage,
    filters: {
      packageId: choiceFilter('套餐', optionsFrom(packagePage, (page) => page.content.map((p) => ({ value: String(p.id), label: p.name })), () => ({ query: { page: 0, size: 200 } }))),
      startDate: textFilter('开始日期', { placeholder: '默认近30天' }),
      endDate: textFilter('结束日期', { placeholder: 'YYYY-MM-DD' }),
    },
    summary: listSummary(packageSummaryTotal, '套餐汇总合计', (t) => `售出 ${t.sold} 份 ${fenToYuan(t.amount)} 元 · 退款 ${t.refunds} 笔 ${fenToYuan(t.refundAmount)} 元 · 净收入 ${fenToYuan(t.net)} 元 · 使用 ${t.ridesUsed} 次`),
  });
  const exporter = useExportAction({ on: ['packagePay', 'package-summary', 'export'], endpoint: packageSummaryExport, filters: list.filterQuery });
  return (
    <ScreenSection title="套餐汇总">
      <ResourceTable
        list={list}
        id="packageSummary.page"
        label="套餐日汇总"
        columns={columns}
        rowKey={(r) => `${r.day}-${r.packageId}`}
        toolbar={<ExportButton action={exporter} label="导出" title="导出当前条件的套餐汇总（后台生成，完成后在下载中心下载）" />}
      />
      <PackageHealth packageId={list.table.filters.packageId} />
    </ScreenSection>
  );
}
