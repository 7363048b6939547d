import { useMemo } from 'react';
import { type Agreement, system } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { useListScreen } from '../../../components/use-list-screen';
import { useAgreements, useAllDistricts, useNoAreaChosen } from '../api';
import { AgreementDialog } from '../components/agreement-dialog';
import { ScreenSection } from '../../../components/screen-section';

const FILTER_KEYS = ['code'] as const;

const preview = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text).replace(/\s+/g, ' ');

/** 协议管理 (ListAgreement): the mini-program's agreement texts of the chosen area (README decision 11). */
export function AgreementPage() {
  const screen = useListScreen<(typeof FILTER_KEYS)[number], Agreement>({
    filters: FILTER_KEYS,
    edit: { permission: system.agreementSave.permission, rowName: (a) => a.title },
  });
  const { table, editing } = screen;
  const agreements = useAgreements(table.filters.code.trim());
  const districts = useAllDistricts();
  const noArea = useNoAreaChosen();

  const districtName = useMemo(() => new Map((districts.data?.content ?? []).map((d) => [d.id, d.name])), [districts.data]);
  const filters = useMemo<FilterDef<(typeof FILTER_KEYS)[number]>[]>(
    () => [{ key: 'code', label: '协议编码', type: 'text', placeholder: '完整编码，如 privacy', maxLength: 40 }],
    [],
  );

  const columns: Column<Agreement>[] = [
    { id: 'district', header: '区域', cell: (a) => (a.districtId === null ? '—' : (districtName.get(a.districtId) ?? `#${a.districtId}`)) },
    { id: 'code', header: '编码', fixed: true, cell: (a) => <code className="text-xs">{a.code}</code> },
    { id: 'title', header: '标题', cell: (a) => <span className="font-medium text-gray-800">{a.title}</span>, className: 'max-w-56 truncate' },
    { id: 'content', header: '内容', cell: (a) => <span className="text-gray-500">{preview(a.content)}</span>, className: 'max-w-sm truncate' },
    { id: 'updatedDate', header: '更新时间', cell: (a) => formatDateTime(a.updatedDate), className: 'tabular-nums' },
    ...(screen.actionsColumn ? [screen.actionsColumn] : []),
  ];

  return (
    <ScreenSection title="协议管理">
      <DataTable
        id="settings.agreements"
        label="协议列表"
        columns={columns}
        rowKey={(a) => a.id}
        result={agreements}
        state={table}
        filters={filters}
        {...screen.rowActivation}
        emptyText={table.filters.code ? '暂无数据：没有该编码的协议' : '暂无数据'}
        toolbar={
          screen.canEdit && (
            <>
              <Button variant="primary" className="h-8" onClick={screen.add}>
                ＋ 新增
              </Button>
            </>
          )
        }
      />
      {editing && (
        <AgreementDialog
          agreement={editing.mode === 'edit' ? editing.row : null}
          areaName={editing.mode === 'edit' ? (editing.row.districtId === null ? null : (districtName.get(editing.row.districtId) ?? null)) : null}
          areas={editing.mode === 'add' && noArea ? (districts.data?.content ?? []) : null}
          onClose={screen.close}
          onSaved={() => {
            screen.close();
            void agreements.mutate();
          }}
        />
      )}
    </ScreenSection>
  );
}
