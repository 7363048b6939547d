import { useMemo, useState } from 'react';
import { type Rider, card } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { useListScreen } from '../../../components/use-list-screen';
import { AddRiderDialog } from '../components/add-rider-dialog';
import { RevealDialog } from '../../../business/desk/desk-dialogs';
import { ResolveDialog } from '../components/resolve-dialog';
import { useExportTask } from '../../../components/use-export-task';

const FILTER_KEYS = ['phone', 'citizenCardNo', 'realName', 'state'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/**
 * 乘客用户 (ListBusUser) and 异常用户 (ListYcUser, `abnormal`): the mini-program's riders, masked;
 * found by the exact phone or citizen id (the server holds no fragment to match), which stay out of
 * the page address and the request URL alike; 查看实名 with a reason; 新增 and 导出 for those who may.
 */
export function RiderListPage({ abnormal = false }: { abnormal?: boolean }) {
  const screen = useListScreen<FilterKey, Rider>({ filters: FILTER_KEYS, schema: card.riderPage.query, privateFilters: ['phone', 'citizenCardNo'], edit: { permission: card.riderAdd.permission, rowName: (r) => r.phone, adds: true } });
  const { table } = screen;
  const query = useMemo(() => ({ ...table.query, ...(abnormal ? { state: '0' as const } : {}) }), [table.query, abnormal]);
  // The body form: a phone or citizen id typed as a filter never sits in a request URL.
  const riders = useApi(card.riderPageByBody, { body: query });
  const summary = useApi(card.riderSummary, {});
  const canReveal = useAllowed(card.riderReveal.permission);
  // 处理异常 is the spec's ycOrder key (README decision 79), offered on 异常用户 only.
  const canResolve = useAllowed(card.riderResolve.permission) && abnormal;
  const [resolving, setResolving] = useState<Rider | null>(null);
  const noArea = useNoAreaChosen();
  const [revealing, setRevealing] = useState<number | null>(null);
  // A task of 下载中心: the file (phones, ids and names masked) is offered when it is ready.
  const exporter = useExportTask(abnormal ? ['busUser', 'yc-user', 'export'] : ['busUser', 'bus-user', 'export'], card.riderExport, abnormal ? { state: '0' } : {});
  const filters = useMemo<FilterDef<FilterKey>[]>(
    () => [
      { key: 'phone', label: '手机号', type: 'text', placeholder: '完整手机号', maxLength: 20 },
      { key: 'citizenCardNo', label: '身份证号', type: 'text', placeholder: '完整身份证号', maxLength: 18 },
      ...(abnormal
        ? []
        : [
            {
              key: 'realName' as const,
              label: '实名',
              type: 'select' as const,
              options: [
                { value: '', label: '全部' },
                { value: '1', label: '已实名' },
                { value: '0', label: '未实名' },
              ],
            },
          ]),
    ],
    [abnormal],
  );
  const columns: Column<Rider>[] = [
    { id: 'name', header: '姓名', fixed: true, cell: (r) => r.name ?? <span className="text-gray-600">未实名</span> },
    { id: 'phone', header: '手机号', cell: (r) => r.phone, className: 'tabular-nums' },
    { id: 'citizenId', header: '身份证号', cell: (r) => r.citizenId ?? '—', className: 'tabular-nums' },
    { id: 'cards', header: '卡片', align: 'right', cell: (r) => r.cards, className: 'tabular-nums' },
    { id: 'state', header: '状态', cell: (r) => (r.state ? '正常' : <span className="text-orange-800">异常：{r.abnormalReason}</span>) },
    { id: 'district', header: '区域', cell: (r) => r.districtName ?? '—', hiddenByDefault: true },
    { id: 'createdDate', header: '注册时间', sort: 'createdDate', cell: (r) => formatDateTime(r.createdDate, 'YYYY-MM-DD'), className: 'tabular-nums' },
    ...(canReveal || canResolve
      ? [
          {
            id: 'actions',
            header: '操作',
            fixed: true,
            cell: (r: Rider) => (
              <span className="flex gap-1">
                {canResolve && (
                  <Button variant="text" onClick={() => setResolving(r)} aria-label={`处理异常 ${r.phone}`}>
                    处理异常
                  </Button>
                )}
                {canReveal && (
                  <Button variant="text" onClick={() => setRevealing(r.id)} aria-label={`查看实名信息 ${r.phone}`}>
                    查看实名
                  </Button>
                )}
              </span>
            ),
          },
        ]
      : []),
  ];
  const s = summary.data;
  return (
    <ScreenSection title={abnormal ? '异常用户' : '乘客用户'}>
      {s && (
        <p className="mb-3 text-sm text-gray-700">
          共 {s.total} 位乘客，已实名 {s.realName}，异常 {s.abnormal}，卡片 {s.cards} 张
        </p>
      )}
      <DataTable
        id={abnormal ? 'rider.abnormal' : 'rider.list'}
        label={abnormal ? '异常用户列表' : '乘客用户列表'}
        columns={columns}
        rowKey={(r) => r.id}
        result={riders}
        state={table}
        filters={filters}
        onRowActivate={canResolve ? (r) => setResolving(r) : canReveal ? (r) => setRevealing(r.id) : undefined}
        activateHint={canResolve ? '按 Enter 处理异常' : canReveal ? '按 Enter 查看实名信息' : undefined}
        emptyText={table.filters.phone || table.filters.citizenCardNo ? '暂无数据：手机号和身份证号需完整输入' : '暂无数据'}
        toolbar={
          <>
            {screen.canAdd && !abnormal && (
              <Button variant="primary" className="h-8" onClick={screen.add} disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined}>
                ＋ 新增乘客
              </Button>
            )}
            <Button className="h-8" disabled={exporter.starting} onClick={() => void exporter.run()}>
              {exporter.starting ? '提交中…' : '导出 Excel'}
            </Button>
          </>
        }
      />
      {resolving && <ResolveDialog rider={resolving} onClose={() => setResolving(null)} onSaved={() => setResolving(null)} />}
      {revealing !== null && <RevealDialog riderId={revealing} onClose={() => setRevealing(null)} />}
      {screen.editing && <AddRiderDialog onClose={screen.close} onSaved={screen.close} />}
    </ScreenSection>
  );
}

export const BusUserPage = () => <RiderListPage />;
export const AbnormalRiderPage = () => <RiderListPage abnormal />;
