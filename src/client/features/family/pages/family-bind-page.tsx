import { useState } from 'react';
import { useLocation } from 'wouter';
import { family } from '../../../../shared/api';
import { CARD_NO, cardCategoryLabel } from '../../../../shared/api/card';
import { BINDING_STATE, type Binding } from '../../../../shared/api/family';
import { formatDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { CardNoLink } from '../../../business/desk/card-no-link';
import { UnbindDialog } from '../../../business/desk/desk-dialogs';
import { flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { UpdateRelationDialog } from '../components/update-relation-dialog';
import { normaliseCardNo } from '../paths';
import { useExport } from '../../../components/use-export';

const day = (iso: string) => formatDateTime(iso, 'YYYY-MM-DD');

const columns: ListColumn<typeof family.bindPageByBody>[] = [
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
    cell: (b) => (
      <span className="flex flex-wrap items-center gap-x-1">
        <FlowBadge flow={BINDING_STATE} code={b.status} />
        {b.unboundDate && <span className="text-xs tabular-nums text-gray-600">{day(b.unboundDate)}</span>}
      </span>
    ),
  },
  { id: 'boundDate', header: '绑定时间', sort: 'boundDate', cell: (b) => day(b.boundDate), className: 'tabular-nums' },
  { id: 'expiresDate', header: '到期时间', sort: 'expiresDate', cell: (b) => day(b.expiresDate), className: 'tabular-nums' },
  { id: 'renewals', header: '续期次数', align: 'right', cell: (b) => b.renewals, className: 'tabular-nums' },
];

/** What its flow still lets go to 已解绑: a live binding, the only kind changed or unbound. */
const live = (b: Binding) => BINDING_STATE.can(b.status, 0);

/**
 * 绑定关系 (ListFamilyBind): the area's family-card bindings, the binder masked as the server sends
 * it; found by card number or by the whole citizen id. Those holding FAMILY_CARD_EDIT change the
 * relation or unbind a live binding, each with their own password again. 导出 Excel for everyone
 * with the screen (the file is masked too).
 */
export function FamilyBindPage() {
  // The body form: a citizen id typed as a filter never sits in a request URL (nor in the address).
  const list = useResourceList({
    endpoint: family.bindPageByBody,
    record: 'family-binding',
    filters: {
      busCardNo: textFilter('卡号', { placeholder: '16位卡号' }),
      // The server finds a citizen through a blind index of the whole number: a fragment matches nothing.
      citizenCardNo: textFilter('身份证号', { placeholder: '完整身份证号' }),
      status: flowFilter(BINDING_STATE, '状态'),
    },
    privateFilters: ['citizenCardNo'],
  });
  const { table } = list;
  const [, navigate] = useLocation();
  // The summary and the export count what the list shows: the same filters, without paging.
  const { filterQuery } = list;
  const summary = useApi(family.bindSummaryByBody, { body: filterQuery });
  const canUnbind = useAllowed(family.unBindByBody.permission);
  const [unbinding, setUnbinding] = useState<string | null>(null);
  const [editing, setEditing] = useState<Binding | null>(null);
  const exporter = useExport(['callingCard', 'family-bind', 'export'], family.bindExportByBody, filterQuery, '亲情卡绑定', '已导出（绑定人姓名、手机号、身份证号已脱敏）');
  // The palette's 解绑亲情卡 lands here with the card filtered (`busCardNo` stays as the filter).
  useScreenAction(['callingCard', 'family-bind', 'unbind'], (args) => {
    const no = normaliseCardNo(args.get('busCardNo') ?? '');
    if (canUnbind && CARD_NO.test(no)) setUnbinding(no);
  });
  // Both ask for the agent's password again, so both open their dialog; Enter changes the relation
  // (the gentler of the two).
  const actions = useRowActions<Binding>(
    [
      { id: 'relation', label: '修改关系', hotkey: 'e', primary: true, permission: family.updateBindByBody.permission, when: live, open: setEditing },
      { id: 'unbind', label: '解绑', hotkey: 'u', danger: true, permission: family.unBindByBody.permission, when: live, open: (b) => setUnbinding(b.cardNo) },
    ],
    (b) => b.cardNo,
  );

  const s = summary.data;
  return (
    <ScreenSection title="绑定关系">
      {s && (
        <p className="mb-3 text-sm text-gray-700" aria-live="polite">
          共 {s.total} 条，已绑定 {s.bound}，已解绑 {s.unbound}，30天内到期 {s.expiringSoon}
        </p>
      )}
      <ResourceTable
        list={list}
        actions={actions}
        id="family.bind"
        label="亲情卡绑定列表"
        columns={columns}
        rowKey={(b) => b.id}
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
