import { useState } from 'react';
import { useLocation } from 'wouter';
import { family } from '../../../../shared/api';
import { CARD_NO, cardCategoryLabel } from '../../../../shared/api/card';
import type { Binding } from '../../../../shared/api/family';
import { formatDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { UnbindDialog } from '../../../business/desk/desk-dialogs';
import { type FilterDef, withAll } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useListScreen } from '../../../components/use-list-screen';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { UpdateRelationDialog } from '../components/update-relation-dialog';
import { normaliseCardNo } from '../paths';
import { useExport } from '../../../components/use-export';
import { useFilterQuery } from '../../../components/table-state';

const FILTER_KEYS = ['busCardNo', 'citizenCardNo', 'status'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

const FILTERS: FilterDef<FilterKey>[] = [
  { key: 'busCardNo', label: '卡号', type: 'text', placeholder: '16位卡号', maxLength: 16 },
  // The server finds a citizen through a blind index of the whole number: a fragment matches nothing.
  { key: 'citizenCardNo', label: '身份证号', type: 'text', placeholder: '完整身份证号', maxLength: 18 },
  {
    key: 'status',
    label: '状态',
    type: 'select',
    options: withAll({ 1: '已绑定', 0: '已解绑' }),
  },
];


/**
 * 绑定关系 (ListFamilyBind): the area's family-card bindings, the binder masked as the server sends
 * it; found by card number or by the whole citizen id. Those holding FAMILY_CARD_EDIT change the
 * relation or unbind a live binding, each with their own password again. 导出 Excel for everyone
 * with the screen (the file is masked too).
 */
export function FamilyBindPage() {
  const screen = useListScreen<FilterKey, Binding>({ filters: FILTER_KEYS, schema: family.bindPage.query, privateFilters: ['citizenCardNo'] });
  const { table } = screen;
  const [, navigate] = useLocation();
  // The summary and the export count what the list shows: the same filters, without paging.
  const filterQuery = useFilterQuery(table.filters);
  // The body forms: a citizen id typed as a filter never sits in a request URL.
  const bindings = useApi(family.bindPageByBody, { body: table.query });
  const summary = useApi(family.bindSummaryByBody, { body: filterQuery });
  const canUnbind = useAllowed(family.unBind.permission);
  const canUpdate = useAllowed(family.updateBind.permission);
  // Both are FAMILY_CARD_EDIT today; the buttons follow whichever the contract declares.
  const canEdit = canUnbind || canUpdate;
  const [unbinding, setUnbinding] = useState<string | null>(null);
  const [editing, setEditing] = useState<Binding | null>(null);
  const exporter = useExport(['callingCard', 'family-bind', 'export'], family.bindExportByBody, filterQuery, '亲情卡绑定', '已导出（绑定人姓名、手机号、身份证号已脱敏）');
  // The palette's 解绑亲情卡 lands here with the card filtered (`busCardNo` stays as the filter).
  useScreenAction(['callingCard', 'family-bind', 'unbind'], (args) => {
    const no = normaliseCardNo(args.get('busCardNo') ?? '');
    if (canUnbind && CARD_NO.test(no)) setUnbinding(no);
  });

  const live = (b: Binding) => b.status === 1;
  const columns: Column<Binding>[] = [
    { id: 'cardNo', header: '卡号', fixed: true, cell: (b) => <CardNoLink cardNo={b.cardNo} /> },
    { id: 'category', header: '卡类别', cell: (b) => cardCategoryLabel(b.cardCategory) },
    { id: 'relation', header: '关系', cell: (b) => b.relation },
    {
      id: 'holder',
      header: '绑定人',
      cell: (b) => (
        <span className="flex flex-wrap gap-x-2">
          <span>{b.holder.name ?? '未实名'}</span>
          <span className="tabular-nums">{b.holder.phone}</span>
          {b.holder.citizenId && <span className="tabular-nums text-gray-600">{b.holder.citizenId}</span>}
        </span>
      ),
    },
    {
      id: 'status',
      header: '状态',
      cell: (b) =>
        live(b) ? (
          <span className="rounded bg-green-50 px-1.5 py-0.5 text-xs text-green-800">已绑定</span>
        ) : (
          <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">已解绑{b.unboundDate ? ` ${formatDateTime(b.unboundDate, 'YYYY-MM-DD')}` : ''}</span>
        ),
    },
    { id: 'boundDate', header: '绑定时间', sort: 'boundDate', cell: (b) => formatDateTime(b.boundDate, 'YYYY-MM-DD'), className: 'tabular-nums' },
    { id: 'expiresDate', header: '到期时间', sort: 'expiresDate', cell: (b) => formatDateTime(b.expiresDate, 'YYYY-MM-DD'), className: 'tabular-nums' },
    { id: 'renewals', header: '续期次数', align: 'right', cell: (b) => b.renewals, className: 'tabular-nums' },
    ...(canEdit
      ? [
          {
            id: 'actions',
            header: '操作',
            fixed: true,
            cell: (b: Binding) =>
              live(b) ? (
                <span className="flex gap-1">
                  {canUpdate && (
                    <Button variant="text" onClick={() => setEditing(b)} aria-label={`修改关系 ${b.cardNo}`}>
                      修改关系
                    </Button>
                  )}
                  {canUnbind && (
                    <Button variant="text" onClick={() => setUnbinding(b.cardNo)} aria-label={`解绑 ${b.cardNo}`}>
                      解绑
                    </Button>
                  )}
                </span>
              ) : (
                <span className="text-gray-500">—</span>
              ),
          },
        ]
      : []),
  ];
  const s = summary.data;
  return (
    <ScreenSection title="绑定关系">
      {s && (
        <p className="mb-3 text-sm text-gray-700" aria-live="polite">
          共 {s.total} 条，已绑定 {s.bound}，已解绑 {s.unbound}，30天内到期 {s.expiringSoon}
        </p>
      )}
      <DataTable
        id="family.bind"
        label="亲情卡绑定列表"
        columns={columns}
        rowKey={(b) => b.id}
        result={bindings}
        state={table}
        filters={FILTERS}
        // Enter on a live row changes its relation (the gentler of the two actions; 解绑 is its own button).
        onRowActivate={canUpdate ? (b) => live(b) && setEditing(b) : undefined}
        activateHint={canUpdate ? (b) => (live(b) ? '按 Enter 修改关系' : undefined) : undefined}
        emptyText={table.filters.citizenCardNo ? '暂无数据：身份证号需完整输入' : '暂无数据'}
        toolbar={
          <>
            <Button className="h-8" onClick={() => navigate(pagePath('callingCard', 'card-subscription'))} title="向卡中心查询一张卡能否绑定为亲情卡">
              卡片订阅/查卡
            </Button>
            <Button className="h-8" disabled={exporter.exporting} onClick={() => void exporter.run()}>
              {exporter.exporting ? '导出中…' : '导出 Excel'}
            </Button>
          </>
        }
      />
      {unbinding !== null && <UnbindDialog cardNo={unbinding} onClose={() => setUnbinding(null)} onDone={() => setUnbinding(null)} />}
      {editing && <UpdateRelationDialog binding={editing} onClose={() => setEditing(null)} onDone={() => setEditing(null)} />}
    </ScreenSection>
  );
}
