import type { z } from 'zod';
import { family } from '../../../../shared/api';
import type { renewRow } from '../../../../shared/api/family';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import { CardNoLink } from '../../../business/desk/card-no-link';
import type { FilterDef } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useListScreen } from '../../../components/use-list-screen';
import { useApi } from '../../../lib/use-api';
import { useExport } from '../../../components/use-export';
import { useFilterQuery } from '../../../components/table-state';

const FILTER_KEYS = ['busCardNo'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
type Renewal = z.output<typeof renewRow>;

const FILTERS: FilterDef<FilterKey>[] = [{ key: 'busCardNo', label: '卡号', type: 'text', placeholder: '16位卡号', maxLength: 16 }];

/**
 * 续费记录 (ListRenewLog): the area's family-card renewals, newest first, with how many and how much
 * in all for the filter shown (amounts travel in fen, shown in yuan); the binder masked; 导出 Excel.
 */
export function RenewLogPage() {
  const { table } = useListScreen<FilterKey, Renewal>({ filters: FILTER_KEYS, schema: family.renewLogPage.query });
  const filterQuery = useFilterQuery(table.filters);
  const renewals = useApi(family.renewLogPage, { query: table.query });
  const summary = useApi(family.renewLogSummary, { query: filterQuery });
  const exporter = useExport(['callingCard', 'renew-log', 'export'], family.renewLogExport, filterQuery, '亲情卡续期', '已导出（绑定人信息已脱敏）');
  const columns: Column<Renewal>[] = [
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
  const s = summary.data;
  return (
    <ScreenSection title="续费记录">
      {s && (
        <p className="mb-3 text-sm text-gray-700" aria-live="polite">
          续期 {s.count} 次，合计 {fenToYuan(s.amount)} 元
        </p>
      )}
      <DataTable
        id="family.renewLog"
        label="亲情卡续期记录"
        columns={columns}
        rowKey={(r) => r.id}
        result={renewals}
        state={table}
        filters={FILTERS}
        emptyText={table.filters.busCardNo ? '暂无数据：卡号需完整输入' : '暂无数据'}
        toolbar={
          <Button className="h-8" disabled={exporter.exporting} onClick={() => void exporter.run()}>
            {exporter.exporting ? '导出中…' : '导出 Excel'}
          </Button>
        }
      />
    </ScreenSection>
  );
}
