import { useState } from 'react';
import { type Rider, card } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { choiceFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { ScreenSection } from '../../../components/screen-section';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { RevealDialog } from '../../../business/desk/desk-dialogs';
import { AddRiderDialog } from '../components/add-rider-dialog';
import { ResolveDialog } from '../components/resolve-dialog';

const columns: ListColumn<typeof card.riderPageByBody>[] = [
  { id: 'name', header: '姓名', fixed: true, cell: (r) => r.name ?? <span className="text-gray-600">未实名</span> },
  { id: 'phone', header: '手机号', cell: (r) => r.phone, className: 'tabular-nums' },
  { id: 'citizenId', header: '身份证号', cell: (r) => r.citizenId ?? '—', className: 'tabular-nums' },
  { id: 'cards', header: '卡片', align: 'right', cell: (r) => r.cards, className: 'tabular-nums' },
  { id: 'state', header: '状态', cell: (r) => (r.state ? '正常' : <span className="text-orange-800">异常：{r.abnormalReason}</span>) },
  { id: 'district', header: '区域', cell: (r) => r.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '注册时间', sort: 'createdDate', cell: (r) => formatDateTime(r.createdDate, 'YYYY-MM-DD'), className: 'tabular-nums' },
];

const phone = textFilter('手机号', { placeholder: '完整手机号' });
const citizenCardNo = textFilter('身份证号', { placeholder: '完整身份证号' });
const realName = choiceFilter('实名', [
  { value: '1', label: '已实名' },
  { value: '0', label: '未实名' },
]);

/**
 * 乘客用户 (ListBusUser) and 异常用户 (ListYcUser, `abnormal`): the mini-program's riders, masked;
 * found by the exact phone or citizen id (the server holds no fragment to match), which stay out of
 * the page address and the request URL alike; 查看实名 with a reason; 新增 and 导出 for those who may.
 */
export function RiderListPage({ abnormal = false }: { abnormal?: boolean }) {
  // The body form: a phone or citizen id typed as a filter never sits in a request URL.
  const list = useResourceList({
    endpoint: card.riderPageByBody,
    record: 'rider',
    filters: abnormal ? { phone, citizenCardNo } : { phone, citizenCardNo, realName },
    privateFilters: ['phone', 'citizenCardNo'],
    fixed: abnormal ? { state: '0' } : undefined,
  });
  const { filters } = list.table;
  const summary = useApi(card.riderSummary, {});
  const [resolving, setResolving] = useState<Rider | null>(null);
  const [revealing, setRevealing] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const actions = useRowActions<Rider>(
    [
      // 处理异常 is the spec's ycOrder key (README decision 79), offered on 异常用户 only.
      ...(abnormal ? [{ id: 'resolve', label: '处理异常', hotkey: 'h', primary: true, permission: card.riderResolve.permission, open: setResolving }] : []),
      { id: 'reveal', label: '查看实名', fullLabel: '查看实名信息', hotkey: 'v', primary: !abnormal, permission: card.riderReveal.permission, open: (r: Rider) => setRevealing(r.id) },
    ],
    (r) => r.phone,
  );
  const canAdd = useAllowed(card.riderAdd.permission) && !abnormal;
  useScreenAction(['busUser', 'bus-user', 'add'], () => {
    if (canAdd) setAdding(true);
  });
  const noArea = useNoAreaChosen();
  // A task of 下载中心 over the list's filters that may sit in a URL (never a phone or citizen id):
  // the file (phones, ids and names masked) is offered when it is ready.
  const exporter = useExportAction({
    on: abnormal ? ['busUser', 'yc-user', 'export'] : ['busUser', 'bus-user', 'export'],
    endpoint: card.riderExport,
    filters: abnormal ? { state: '0' } : { realName: filters.realName === '0' || filters.realName === '1' ? filters.realName : undefined },
  });
  const s = summary.data;
  return (
    <ScreenSection title={abnormal ? '异常用户' : '乘客用户'}>
      {s && (
        <p className="mb-3 text-sm text-gray-700">
          共 {s.total} 位乘客，已实名 {s.realName}，异常 {s.abnormal}，卡片 {s.cards} 张
        </p>
      )}
      <ResourceTable
        list={list}
        actions={actions}
        id={abnormal ? 'rider.abnormal' : 'rider.list'}
        label={abnormal ? '异常用户列表' : '乘客用户列表'}
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={filters.phone || filters.citizenCardNo ? '暂无数据：手机号和身份证号需完整输入' : '暂无数据'}
        toolbar={
          <>
            {canAdd && (
              <Button variant="primary" className="h-8" onClick={() => setAdding(true)} disabled={noArea} title={noArea ? '请先在顶部选择区域' : undefined}>
                ＋ 新增乘客
              </Button>
            )}
            <ExportButton action={exporter} />
          </>
        }
      >
        {resolving && <ResolveDialog rider={resolving} onClose={() => setResolving(null)} onSaved={() => setResolving(null)} />}
        {revealing !== null && <RevealDialog riderId={revealing} onClose={() => setRevealing(null)} />}
        {adding && <AddRiderDialog onClose={() => setAdding(false)} onSaved={() => setAdding(false)} />}
      </ResourceTable>
    </ScreenSection>
  );
}

export const BusUserPage = () => <RiderListPage />;
export const AbnormalRiderPage = () => <RiderListPage abnormal />;
