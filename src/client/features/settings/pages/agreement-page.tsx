import { useMemo, useState } from 'react';
import { type Agreement, system } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useAllDistricts, useNoAreaChosen } from '../api';
import { AgreementDialog } from '../components/agreement-dialog';

const preview = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text).replace(/\s+/g, ' ');

type Editing = { agreement: Agreement | null } | null;

/** 协议管理 (ListAgreement): the mini-program's agreement texts of the chosen area (README decision 11). */
export function AgreementPage() {
  const list = useResourceList({ endpoint: system.agreementList, filters: { code: textFilter('协议编码', { placeholder: '完整编码，如 privacy' }) } });
  const districts = useAllDistricts();
  const noArea = useNoAreaChosen();
  const canEdit = useAllowed(system.agreementSave.permission);
  const [editing, setEditing] = useState<Editing>(null);
  // The palette's 新增协议 lands here with ?action=add.
  useScreenAction(['settings', 'agreements', 'add'], () => {
    if (canEdit) setEditing({ agreement: null });
  });
  const actions = useRowActions<Agreement>(
    [{ id: 'edit', label: '编辑', hotkey: 'e', primary: true, permission: system.agreementSave.permission, open: (agreement) => setEditing({ agreement }) }],
    (a) => a.title,
  );

  const districtName = useMemo(() => new Map((districts.data?.content ?? []).map((d) => [d.id, d.name])), [districts.data]);
  const columns: ListColumn<typeof system.agreementList>[] = [
    { id: 'district', header: '区域', cell: (a) => (a.districtId === null ? '—' : (districtName.get(a.districtId) ?? `#${a.districtId}`)) },
    { id: 'code', header: '编码', fixed: true, cell: (a) => <code className="text-xs">{a.code}</code> },
    { id: 'title', header: '标题', cell: (a) => <span className="font-medium text-gray-800">{a.title}</span>, className: 'max-w-56 truncate' },
    { id: 'content', header: '内容', cell: (a) => <span className="text-gray-500">{preview(a.content)}</span>, className: 'max-w-sm truncate' },
    { id: 'updatedDate', header: '更新时间', cell: (a) => formatDateTime(a.updatedDate), className: 'tabular-nums' },
  ];
  const editedArea = editing?.agreement ? (editing.agreement.districtId === null ? null : (districtName.get(editing.agreement.districtId) ?? null)) : null;

  return (
    <ScreenSection title="协议管理">
      <ResourceTable
        list={list}
        actions={actions}
        id="settings.agreements"
        label="协议列表"
        columns={columns}
        rowKey={(a) => a.id}
        emptyText={list.table.filters.code ? '暂无数据：没有该编码的协议' : '暂无数据'}
        toolbar={
          canEdit && (
            <Button variant="primary" className="h-8" onClick={() => setEditing({ agreement: null })}>
              ＋ 新增
            </Button>
          )
        }
      />
      {/* Saving refetches the list by its tags (useContractForm). */}
      {editing && (
        <AgreementDialog
          agreement={editing.agreement}
          areaName={editedArea}
          areas={!editing.agreement && noArea ? (districts.data?.content ?? []) : null}
          onClose={() => setEditing(null)}
          onSaved={() => setEditing(null)}
        />
      )}
    </ScreenSection>
  );
}
