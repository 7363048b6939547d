import { useState } from 'react';
import { ridership } from '../../../../shared/api';
import { directionLabel } from '../../../../shared/api/bus-line';
import { PAY_STATUS, TICKET_TYPES, cardCategoryLabel, payStatusLabel, ticketTypeLabel } from '../../../../shared/api/card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { type FilterField, choiceFilter, codeFilter, optionsFrom, shapeOnly, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';
import { PAY_TONE, rechargeStatusLabel } from '../components/ride-labels';
import { lastDays } from '../components/ride-range';
import { RideOrderDialog } from '../components/ride-order-dialog';

/** The days the screen opens on: a week is a few thousand rides, well inside the 31 days allowed. */
const DEFAULT_DAYS = 7;
// A partial card number stays in the bar, to be refused in words, instead of being dropped.
const LIST_SCHEMA = shapeOnly(ridership.recordList.query, ['cardNo']);

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

/** 车辆: the chosen line's buses (every bus of the area without a line), typed by this list's filters. */
const busFilter: FilterField<typeof ridership.recordList> = choiceFilter(
  '车辆',
  optionsFrom(ridership.ridershipBusNames, (buses) => buses.map((b) => ({ value: b, label: b })), (f) => ({ query: f.lineCode ? { lineCode: f.lineCode } : {} })),
);

/** The last week as the time filters hold it, whole Shanghai days. */
function lastWeek() {
  const { start, end } = lastDays(DEFAULT_DAYS);
  return { startTime: `${start}T00:00:00+08:00`, endTime: `${end}T23:59:59+08:00` };
}

/**
 * 乘车记录 (ListOrder): the area's rides by card, line, bus, ticket type, payment and time, newest
 * first, with what the filters select counted on top. Without a card number the server reads at
 * most 31 days, so the screen opens on the last week; with one, every ride of the card. Enter on a
 * ride opens its payment order. The palette's 查看卡的乘车记录 lands here with `?cardNo=`.
 */
export function OrderListPage() {
  const list = useResourceList({
    endpoint: ridership.recordList,
    filters: {
      cardNo: textFilter('卡号', { placeholder: '16 位卡号', maxLength: 16 }),
      lineCode: choiceFilter('线路', optionsFrom(ridership.ridershipLineCodes, (lines) => lines.map((l) => ({ value: l.lineCode, label: l.lineName })))),
      busName: busFilter,
      ticketType: codeFilter('票种', TICKET_TYPES),
      payStatus: codeFilter('支付状态', PAY_STATUS),
      startTime: timeFilter('乘车时间从'),
      endTime: timeFilter('至', { endOfDay: true }),
    },
    schema: LIST_SCHEMA,
    effective: (f) => (f.cardNo || f.startTime || f.endTime ? f : { ...f, ...lastWeek() }),
    guard: { schema: ridership.recordSummary.query, hint: (f) => (f.cardNo ? undefined : '（输入卡号时可不限时间，查询该卡的全部记录）') },
    // Another line's bus would select nothing: choosing a line lets go of the bus.
    patchFilters: (patch, f) => (patch.lineCode !== undefined && patch.lineCode !== f.lineCode ? { ...patch, busName: '' } : patch),
    summary: listSummary(
      ridership.recordSummary,
      '乘车记录统计',
      (s) => `共 ${s.rides} 次乘车，金额 ${fenToYuan(s.amount)} 元；已支付 ${s.paid} 次，未支付 ${s.unpaid} 次，已退款 ${s.refunded} 次`,
    ),
  });
  const [open, setOpen] = useState<number | null>(null);
  // Exports run as tasks of the download centre, over the same filters.
  const exporter = useExportAction({ on: ['order', 'order-list', 'export'], endpoint: ridership.recordExport, filters: list.filterQuery, refusal: list.refusal });
  const staffExporter = useExportAction({ on: ['order', 'order-list', 'export-staff'], endpoint: ridership.employeeRecordExport, filters: list.filterQuery, refusal: list.refusal });

  return (
    <ScreenSection title="乘车记录">
      <ResourceTable
        list={list}
        id="ride.records"
        label="乘车记录列表"
        columns={columns}
        rowKey={(r) => r.id}
        onRowActivate={(r) => setOpen(r.id)}
        activateHint="按 Enter 查看支付订单"
        emptyText={list.table.filters.cardNo ? '暂无数据：卡号需完整输入 16 位' : '暂无数据'}
        toolbar={
          <>
            <ExportButton action={exporter} label="导出" disabled={!!list.refusal} title="导出当前条件的乘车记录（后台生成，完成后在下载中心下载）" />
            <ExportButton action={staffExporter} label="导出员工记录" disabled={!!list.refusal} title="只导出员工卡的乘车记录" />
          </>
        }
      />
      {open !== null && <RideOrderDialog id={open} onClose={() => setOpen(null)} />}
    </ScreenSection>
  );
}
