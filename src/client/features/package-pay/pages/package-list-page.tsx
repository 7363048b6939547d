import { useLocation } from 'wouter';
import { PACKAGE_EDITOR, PACKAGE_STATUS, PACKAGE_STATUS_MOVER, type Package, packageDelete, packageExport, packagePage, packageTotal, packageUpdateStatus } from '../../../../shared/api/package-pay';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { editPath } from '../paths';

const day = (at: string) => formatDateTime(at, 'YYYY-MM-DD');
/** The sale window has passed: a package still 在售 sells nothing until its dates are moved. */
const windowOver = (p: Package) => Date.parse(p.saleEnd) <= Date.now();

const columns: ListColumn<typeof packagePage>[] = [
  { id: 'name', header: '套餐名称', fixed: true, cell: (p) => <span className="font-medium text-gray-800">{p.name}</span> },
  { id: 'price', header: '售价（元）', sort: 'price', align: 'right', cell: (p) => fenToYuan(p.price), className: 'tabular-nums' },
  { id: 'originalPrice', header: '原价（元）', align: 'right', cell: (p) => <span className="text-gray-500 line-through">{fenToYuan(p.originalPrice)}</span>, className: 'tabular-nums' },
  { id: 'rides', header: '次数', align: 'right', cell: (p) => p.rides, className: 'tabular-nums' },
  { id: 'validDays', header: '有效天数', align: 'right', cell: (p) => p.validDays, className: 'tabular-nums' },
  { id: 'lineScope', header: '适用线路', cell: (p) => (p.lineScope ? p.lineScope.join('、') : '全部线路') },
  { id: 'stock', header: '库存 / 已售', align: 'right', cell: (p) => `${p.stock === null ? '不限' : p.stock} / ${p.sold}`, className: 'tabular-nums' },
  {
    id: 'sale',
    header: '销售时间',
    cell: (p) => (
      <span className={windowOver(p) ? 'text-orange-700' : undefined}>
        {day(p.saleStart)} 至 {day(p.saleEnd)}
        {windowOver(p) && '（已结束）'}
      </span>
    ),
    className: 'tabular-nums',
  },
  { id: 'status', header: '状态', cell: (p) => <FlowBadge flow={PACKAGE_STATUS} code={p.status} /> },
  { id: 'district', header: '区域', cell: (p) => p.districtName ?? '—', hiddenByDefault: true },
  { id: 'sort', header: '排序', sort: 'sort', align: 'right', cell: (p) => p.sort, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (p) => formatDateTime(p.createdDate), className: 'tabular-nums', hiddenByDefault: true },
];

const move = (p: Package, toStatus: Package['status']) => ({ body: { id: p.id, fromStatus: p.status, toStatus, rowVersion: p.rowVersion } });

/** The row actions of 套餐管理: the status flow's moves, 编辑 and 删除. */
function usePackageActions(edit: (p: Package) => void) {
  return useRowActions<Package>(
    [
      { id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: PACKAGE_EDITOR, open: edit },
      callAction({
        id: 'publish',
        label: (p) => (p.status === 2 ? '重新上架' : '上架'),
        hotkey: 'p',
        permission: PACKAGE_STATUS_MOVER,
        when: (p) => p.status !== 1,
        endpoint: packageUpdateStatus,
        input: (p) => move(p, 1),
        done: (p) => `已${p.status === 2 ? '重新上架' : '上架'}套餐「${p.name}」`,
        confirm: { title: '上架套餐', body: (p) => <p>确定上架套餐「{p.name}」（{fenToYuan(p.price)} 元 {p.rides} 次 {p.validDays} 天）吗？上架后乘客即可在小程序购买。</p> },
      }),
      callAction({
        id: 'unpublish',
        label: '下架',
        hotkey: 'o',
        danger: true,
        permission: PACKAGE_STATUS_MOVER,
        when: (p) => p.status === 1,
        endpoint: packageUpdateStatus,
        input: (p) => move(p, 2),
        done: (p) => `已下架套餐「${p.name}」`,
        undo: { input: (p, moved) => ({ body: { id: p.id, fromStatus: 2 as const, toStatus: 1 as const, rowVersion: moved.rowVersion } }), done: (p) => `已撤销：套餐「${p.name}」恢复在售` },
      }),
      callAction({
        id: 'delete',
        label: '删除',
        hotkey: 'd',
        danger: true,
        permission: PACKAGE_EDITOR,
        when: (p) => p.status !== 1 && p.orders === 0,
        endpoint: packageDelete,
        input: (p) => ({ query: { id: p.id } }),
        done: (p) => `已删除套餐「${p.name}」`,
        confirm: { title: '删除套餐', irreversible: true, body: (p) => <p>确定删除套餐「{p.name}」吗？删除后不能恢复。</p> },
      }),
    ],
    (p) => p.name,
  );
}

/** 套餐管理 (ListPackage): the area's packages, their sale status, 编辑 and 删除; 新增套餐 opens the form page. */
export function PackageListPage() {
  const [, navigate] = useLocation();
  const canEdit = useAllowed(PACKAGE_EDITOR);
  const list = useResourceList({
    endpoint: packagePage,
    record: 'package',
    filters: { name: textFilter('套餐名称'), status: flowFilter(PACKAGE_STATUS) },
    summary: listSummary(packageTotal, '套餐统计', (t) => `共 ${t.total} 个套餐 · 在售 ${t.onSale} · 已下架 ${t.offSale} · 草稿 ${t.draft} · 累计售出 ${t.sold} 份`),
  });
  const exporter = useExportAction({ on: ['packagePay', 'package-manage', 'export'], endpoint: packageExport, filters: list.filterQuery });
  const actions = usePackageActions((p) => navigate(editPath(p.id)));
  return (
    <ScreenSection title="套餐管理">
      <ResourceTable
        list={list}
        actions={actions}
        id="package.page"
        label="套餐列表"
        columns={columns}
        rowKey={(p) => p.id}
        toolbar={
          <>
            <ExportButton action={exporter} />
            {canEdit && (
              <Button className="h-8" variant="primary" onClick={() => navigate(editPath())}>
                新增套餐
              </Button>
            )}
          </>
        }
      />
    </ScreenSection>
  );
}
