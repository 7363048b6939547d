import { family } from '../../../../shared/api';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';

const columns: ListColumn<typeof family.renewLogPage>[] = [
  { id: 'cardNo', header: '卡号', fixed: true, cell: (r) => <CardNoLink cardNo={r.cardNo} /> },
  { id: 'months', header: '续期月数', align: 'right', cell: (r) => `${r.months} 个月`, className: 'tabular-nums' },
  { id: 'amount', header: '金额', align: 'right', cell: (r) => `${fenToYuan(r.amount)} 元`, className: 'tabular-nums' },
  { id: 'renewedDate', header: '续期时间', sort: 'renewedDate', cell: (r) => formatDateTime(r.renewedDate), className: 'tabular-nums' },
  {
    id: 'holder',
    header: '绑定人',
    cell: (r) => (
      <span className="flex flex-wrap gap-x-2">
        <span>{r.holder.name ?? '未实名'}</span>
        <span className="tabular-nums">{r.holder.phone}</span>
      </span>
    ),
  },
];

/**
 * 续费记录 (ListRenewLog): the area's family-card renewals, newest first, with how many and how much
 * in all for the filter shown (amounts travel in fen, shown in yuan); the binder masked; 导出 Excel.
 */
export function RenewLogPage() {
  const list = useResourceList({
    endpoint: family.renewLogPage,
    filters: { busCardNo: textFilter('卡号', { placeholder: '16位卡号' }) },
    summary: listSummary(family.renewLogSummary, '续期统计', (s) => `续期 ${s.count} 次，合计 ${fenToYuan(s.amount)} 元`),
  });
  const exporter = useExportAction({
    on: ['callingCard', 'renew-log', 'export'],
    endpoint: family.renewLogExport,
    filters: list.filterQuery,
    file: { name: '亲情卡续期', done: '已导出（绑定人信息已脱敏）' },
  });
  return (
    <ScreenSection title="续费记录">
      <ResourceTable
        list={list}
        id="family.renewLog"
        label="亲情卡续期记录"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={list.table.filters.busCardNo ? '暂无数据：卡号需完整输入' : '暂无数据'}
        toolbar={<ExportButton action={exporter} />}
      />
    </ScreenSection>
  );
}
