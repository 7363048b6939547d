import { useMemo, useState } from 'react';
import { ridership } from '../../../../shared/api';
import { directionLabel } from '../../../../shared/api/bus-line';
import { PAY_STATUS, TICKET_TYPES, cardCategoryLabel, payStatusLabel, ticketTypeLabel } from '../../../../shared/api/card';
import type { RideRecord } from '../../../../shared/api/ridership';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { DataTable, type TableResult } from '../../../components/data-table';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { type ListColumn } from '../../../components/resource/resource-list';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { type FilterDef, type FilterOption, withAll } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useFilterQuery } from '../../../components/table-state';
import { useListScreen } from '../../../components/use-list-screen';
import { useApi } from '../../../lib/use-api';
import { PAY_TONE, rechargeStatusLabel } from '../components/ride-labels';
import { lastDays, refusalOf, shapeOnly, useEffectiveTable } from '../components/ride-range';
import { RideOrderDialog } from '../components/ride-order-dialog';

const FILTER_KEYS = ['cardNo', 'lineCode', 'busName', 'ticketType', 'payStatus', 'startTime', 'endTime'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** The days the screen opens on: a week is a few thousand rides, well inside the 31 days allowed. */
const DEFAULT_DAYS = 7;
const LIST_SCHEMA = shapeOnly(ridership.recordList.query, ['cardNo']);
const NOTHING: TableResult<RideRecord> = { data: undefined, error: undefined, isLoading: false, mutate: () => undefined };

const columns: ListColumn<typeof ridership.recordList>[] = [
  { id: 'rideDate', header: '乘车时间', fixed: true, sort: 'rideDate', cell: (r) => formatDateTime(r.rideDate), className: 'tabular-nums' },
  { id: 'cardNo', header: '卡号', cell: (r) => <CardNoLink cardNo={r.cardNo} /> },
  { id: 'line', header: '线路', cell: (r) => r.lineName },
  { id: 'busName', header: '车辆', cell: (r) => r.busName },
  { id: 'direction', header: '方向', cell: (r) => directionLabel(r.direction) },
  { id: 'stationName', header: '上车站点', cell: (r) => r.stationName ?? '—' },
  { id: 'cardCategory', header: '卡类别', cell: (r) => cardCategoryLabel(r.cardCategory), hiddenByDefault: true },
  { id: 'ticketType', header: '票种', cell: (r) => ticketTypeLabel(r.ticketType) },
  { id: 'amount', header: '金额（元）', align: 'right', sort: 'amount', cell: (r) => fenToYuan(r.amount), className: 'tabular-nums' },
  { id: 'payStatus', header: '支付状态', cell: (r) => <span className={`rounded px-1.5 py-0.5 text-xs ${PAY_TONE[r.payStatus] ?? ''}`}>{payStatusLabel(r.payStatus)}</span> },
  { id: 'rechargeStatus', header: '充值状态', cell: (r) => rechargeStatusLabel(r.rechargeStatus), hiddenByDefault: true },
];

/** A select's options, keeping a value the list does not hold (an old link) visible as itself. */
const optionsWith = (options: FilterOption[], current: string): FilterOption[] =>
  current && !options.some((o) => o.value === current) ? [...options, { value: current, label: current }] : options;

/**
 * 乘车记录 (ListOrder): the area's rides by card, line, bus, ticket type, payment and time, newest
 * first, with what the filters select counted on top. Without a card number the server reads at
 * most 31 days, so the screen opens on the last week; with one, every ride of the card. Enter on a
 * ride opens its payment order. The palette's 查看卡的乘车记录 lands here with `?cardNo=`.
 */
export function OrderListPage() {
  const { table: fromUrl } = useListScreen<FilterKey, RideRecord>({ filters: FILTER_KEYS, schema: LIST_SCHEMA });
  const [week] = useState(() => lastDays(DEFAULT_DAYS));
  const [open, setOpen] = useState<number | null>(null);

  const f = fromUrl.filters;
  const defaulted = !f.cardNo && !f.startTime && !f.endTime;
  const table = useEffectiveTable(fromUrl, defaulted ? { ...f, startTime: `${week.start}T00:00:00+08:00`, endTime: `${week.end}T23:59:59+08:00` } : f);
  // Another line's bus would select nothing: choosing a line lets go of the bus.
  const state = useMemo(
    () => ({ ...table, setFilters: (patch: Partial<Record<FilterKey, string>>) => table.setFilters(patch.lineCode !== undefined && patch.lineCode !== table.filters.lineCode ? { ...patch, busName: '' } : patch) }),
    [table],
  );

  const filterQuery = useFilterQuery(table.filters);
  const refusal = refusalOf(ridership.recordSummary.query, filterQuery);
  const records = useApi(ridership.recordList, refusal ? null : { query: table.query });
  // Exports run as tasks of the download centre, over the same filters.
  const exporter = useExportAction({ on: ['order', 'order-list', 'export'], endpoint: ridership.recordExport, filters: filterQuery });
  const staffExporter = useExportAction({ on: ['order', 'order-list', 'export-staff'], endpoint: ridership.employeeRecordExport, filters: filterQuery });
  const summary = useApi(ridership.recordSummary, refusal ? null : { query: filterQuery });
  const lines = useApi(ridership.ridershipLineCodes, {});
  const buses = useApi(ridership.ridershipBusNames, { query: table.filters.lineCode ? { lineCode: table.filters.lineCode } : {} });

  const filters = useMemo<FilterDef<FilterKey>[]>(
    () => [
      { key: 'cardNo', label: '卡号', type: 'text', placeholder: '16 位卡号', maxLength: 16 },
      { key: 'lineCode', label: '线路', type: 'select', options: optionsWith([{ value: '', label: '全部' }, ...(lines.data ?? []).map((l) => ({ value: l.lineCode, label: l.lineName }))], table.filters.lineCode) },
      { key: 'busName', label: '车辆', type: 'select', options: optionsWith([{ value: '', label: '全部' }, ...(buses.data ?? []).map((b) => ({ value: b, label: b }))], table.filters.busName) },
      { key: 'ticketType', label: '票种', type: 'select', options: withAll(TICKET_TYPES) },
      { key: 'payStatus', label: '支付状态', type: 'select', options: withAll(PAY_STATUS) },
      { key: 'startTime', label: '乘车时间从', type: 'datetime' },
      { key: 'endTime', label: '至', type: 'datetime', endOfDay: true },
    ],
    [lines.data, buses.data, table.filters.lineCode, table.filters.busName],
  );


  const s = summary.data;
  return (
    <ScreenSection title="乘车记录">
      {refusal ? (
        <p role="alert" className="mb-3 rounded border border-orange-200 bg-orange-50 px-3 py-2 text-sm text-orange-800">
          {refusal}
          {!table.filters.cardNo && <span className="text-orange-900">（输入卡号时可不限时间，查询该卡的全部记录）</span>}
        </p>
      ) : (
        // Dimmed while new filters load: the figures shown are still the last ones.
        <p className={`mb-3 min-h-5 text-sm text-gray-700 transition-opacity ${summary.isValidating && s ? 'opacity-60' : ''}`} aria-live="polite">
          {s && (
            <>
              共 {s.rides} 次乘车，金额 {fenToYuan(s.amount)} 元；已支付 {s.paid} 次，未支付 {s.unpaid} 次，已退款 {s.refunded} 次
            </>
          )}
        </p>
      )}
      <DataTable
        id="ride.records"
        label="乘车记录列表"
        columns={columns}
        rowKey={(r) => r.id}
        result={refusal ? NOTHING : records}
        state={state}
        filters={filters}
        onRowActivate={(r) => setOpen(r.id)}
        activateHint="按 Enter 查看支付订单"
        emptyText={refusal ? '请修改查询条件' : table.filters.cardNo ? '暂无数据：卡号需完整输入 16 位' : '暂无数据'}
        toolbar={
          <>
            <ExportButton action={exporter} label="导出" disabled={!!refusal} title="导出当前条件的乘车记录（后台生成，完成后在下载中心下载）" />
            <ExportButton action={staffExporter} label="导出员工记录" disabled={!!refusal} title="只导出员工卡的乘车记录" />
          </>
        }
      />
      {open !== null && <RideOrderDialog id={open} onClose={() => setOpen(null)} />}
    </ScreenSection>
  );
}
