import { useLocation } from 'wouter';
import { CUSTOM_LINE_EDITOR, CUSTOM_LINE_STATUS_MOVER } from '../../../../shared/api/custom-bus/buttons';
import { type CustomLine, lineDelete, lineExport, linePage, lineTotal, lineUpdateStatus } from '../../../../shared/api/custom-bus/network';
import { DISCOUNT_TYPE, LINE_DIRECTION, LINE_STATUS, TICKET_TYPE } from '../../../../shared/api/custom-bus/states';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { codeFilter, flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { lineEditPath, linePathPath } from '../network-paths';

export const directionText = (d: number) => LINE_DIRECTION[String(d) as keyof typeof LINE_DIRECTION];
const discountText = (l: CustomLine) => (l.discountType === 2 ? `${(l.discountRate ?? 0) / 100}折` : l.discountType === 3 ? `折后 ${fenToYuan(l.discountPrice ?? 0)}` : DISCOUNT_TYPE[1]);
/** The legs the line runs that still lack a path of 2 stops: 上架 is refused until there are none. */
export const missingLegs = (l: Pick<CustomLine, 'direction' | 'upStops' | 'downStops'>) =>
  [...(l.direction !== 1 && l.upStops < 2 ? ['上行'] : []), ...(l.direction !== 0 && l.downStops < 2 ? ['下行'] : [])];

const columns: ListColumn<typeof linePage>[] = [
  { id: 'lineNo', header: '线路编号', sort: 'lineNo', fixed: true, cell: (l) => <span className="font-medium tabular-nums text-gray-800">{l.lineNo}</span> },
  { id: 'name', header: '线路名称', cell: (l) => l.name },
  { id: 'direction', header: '方向', cell: (l) => directionText(l.direction) },
  { id: 'ends', header: '起点 → 终点', cell: (l) => `${l.startStationName ?? '—'} → ${l.endStationName ?? '—'}` },
  {
    id: 'times',
    header: '时间',
    cell: (l) => (
      <span className="tabular-nums">
        {l.departTime}–{l.arriveTime}
        {l.returnDepartTime && ` / ${l.returnDepartTime}–${l.returnArriveTime}`}
      </span>
    ),
  },
  { id: 'price', header: '售价（元）', sort: 'price', align: 'right', cell: (l) => fenToYuan(l.price), className: 'tabular-nums' },
  { id: 'discount', header: '优惠', cell: (l) => (l.discountType === 1 ? '—' : <span title={`原价 ${fenToYuan(l.originalPrice)} 元`}>{discountText(l)}</span>) },
  {
    id: 'stops',
    header: '站点',
    cell: (l) => {
      const missing = missingLegs(l);
      return (
        <span className={missing.length ? 'text-orange-700' : undefined}>
          {l.direction === -1 ? `${l.upStops} / ${l.downStops}` : l.direction === 0 ? l.upStops : l.downStops}
          {missing.length > 0 && `（缺${missing.join('、')}轨迹）`}
        </span>
      );
    },
  },
  { id: 'status', header: '状态', cell: (l) => <FlowBadge flow={LINE_STATUS} code={l.status} /> },
  { id: 'ticketTypes', header: '票种', cell: (l) => l.ticketTypes.map((t) => TICKET_TYPE[t as 1 | 2]).join('、'), hiddenByDefault: true },
  { id: 'seats', header: '默认座位', align: 'right', cell: (l) => l.defaultSeats, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'sort', header: '排序', sort: 'sort', align: 'right', cell: (l) => l.sort, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'district', header: '区域', cell: (l) => l.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (l) => formatDateTime(l.createdDate), className: 'tabular-nums', hiddenByDefault: true },
];

const move = (l: CustomLine, toStatus: CustomLine['status']) => ({ body: { id: l.id, fromStatus: l.status, toStatus, rowVersion: l.rowVersion } });

/** The row actions of 定制线路: 编辑, 轨迹, the status flow's moves and 删除. */
function useLineActions(navigate: (to: string) => void) {
  return useRowActions<CustomLine>(
    [
      { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: CUSTOM_LINE_EDITOR, open: (l) => navigate(lineEditPath(l.id)) },
      { id: 'path', label: '轨迹', hotkey: 't', permission: linePage.permission, open: (l) => navigate(linePathPath(l.id)) },
      callAction({
        id: 'publish',
        label: (l) => (l.status === 2 ? '重新上架' : '上架'),
        hotkey: 'p',
        permission: CUSTOM_LINE_STATUS_MOVER,
        when: (l) => l.status !== 1,
        endpoint: lineUpdateStatus,
        input: (l) => move(l, 1),
        done: (l) => `已上架定制线路「${l.name}」`,
        confirm: {
          title: '上架定制线路',
          body: (l) => (
            <p>
              确定上架 {l.lineNo}「{l.name}」（{directionText(l.direction)}，{fenToYuan(l.price)} 元）吗？上架后可排班售票。
              {missingLegs(l).length > 0 && <span className="mt-2 block text-orange-700">尚缺{missingLegs(l).join('、')}轨迹，上架会被拒绝。</span>}
            </p>
          ),
        },
      }),
      callAction({
        id: 'unpublish',
        label: '下架',
        hotkey: 'o',
        danger: true,
        permission: CUSTOM_LINE_STATUS_MOVER,
        when: (l) => l.status === 1,
        endpoint: lineUpdateStatus,
        input: (l) => move(l, 2),
        done: (l) => `已下架定制线路「${l.name}」`,
        undo: { input: (l, moved) => ({ body: { id: l.id, fromStatus: 2 as const, toStatus: 1 as const, rowVersion: moved.rowVersion } }), done: (l) => `已撤销：定制线路「${l.name}」恢复上架` },
      }),
      callAction({
        id: 'delete',
        label: '删除',
        hotkey: 'd',
        danger: true,
        permission: CUSTOM_LINE_EDITOR,
        when: (l) => l.status !== 1 && l.orders === 0,
        endpoint: lineDelete,
        input: (l) => ({ query: { id: l.id } }),
        done: (l) => `已删除定制线路「${l.name}」`,
        confirm: { title: '删除定制线路', irreversible: true, body: (l) => <p>确定删除 {l.lineNo}「{l.name}」吗？它的轨迹和未售票的班次一并删除，不能恢复。</p> },
      }),
    ],
    (l) => `${l.lineNo} ${l.name}`,
  );
}

/** 定制线路 (ListCustomLine): the area's lines, their paths' completeness, 上架/下架; 新增 opens the form page. */
export function CustomLinePage() {
  const [, navigate] = useLocation();
  const canEdit = useAllowed(CUSTOM_LINE_EDITOR);
  const list = useResourceList({
    endpoint: linePage,
    record: 'customLine',
    filters: { keyword: textFilter('线路', { placeholder: '编号或名称，如 D101' }), status: flowFilter(LINE_STATUS), direction: codeFilter('方向', LINE_DIRECTION) },
    // 定制站点's 线路 links here with the station.
    linkFilters: ['stationId'],
    summary: listSummary(lineTotal, '定制线路统计', (t) => `共 ${t.total} 条线路 · 已上架 ${t.onSale} · 已下架 ${t.offSale} · 草稿 ${t.draft} · 往返 ${t.roundTrip}`),
  });
  const exporter = useExportAction({ on: ['customBus', 'custom-line', 'export'], endpoint: lineExport, filters: list.filterQuery });
  const actions = useLineActions(navigate);
  return (
    <ScreenSection title="定制线路">
      <ResourceTable
        list={list}
        actions={actions}
        id="customLine.page"
        label="定制线路列表"
        columns={columns}
        rowKey={(l) => l.id}
        toolbar={
          <>
            <ExportButton action={exporter} />
            {canEdit && (
              <Button className="h-8" variant="primary" onClick={() => navigate(lineEditPath())}>
                新增定制线路
              </Button>
            )}
          </>
        }
      />
    </ScreenSection>
  );
}
