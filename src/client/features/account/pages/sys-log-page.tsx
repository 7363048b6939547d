import { useMemo, useState } from 'react';
import { type SysLog, system } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { useTableState } from '../../../components/table-state';
import { useOperationTypes, useSysLogs } from '../api';
import { LogDetailDialog } from '../components/log-detail-dialog';
import { ResultBadge } from '../components/result-badge';
import { ScreenSection } from '../../../components/screen-section';

const FILTER_KEYS = ['operationType', 'operator', 'result', 'startTime', 'endTime'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** 系统日志 (ListSysLog): who did what, when, from where, and what it changed. */
export function SysLogPage() {
  const table = useTableState<FilterKey>({ filters: FILTER_KEYS, schema: system.sysLogPage.query });
  const logs = useSysLogs(table.query);
  const types = useOperationTypes();
  const [open, setOpen] = useState<SysLog | null>(null);

  const filters = useMemo<FilterDef<FilterKey>[]>(
    () => [
      {
        key: 'operationType',
        label: '操作类型',
        type: 'select',
        options: [{ value: '', label: '全部' }, ...(types.data ?? []).map((t) => ({ value: t.value, label: t.label }))],
      },
      { key: 'operator', label: '操作人', type: 'text', placeholder: '登录名', maxLength: 32 },
      {
        key: 'result',
        label: '结果',
        type: 'select',
        options: [
          { value: '', label: '全部' },
          { value: '1', label: '成功' },
          { value: '0', label: '失败' },
        ],
      },
      { key: 'startTime', label: '开始时间', type: 'datetime' },
      { key: 'endTime', label: '结束时间', type: 'datetime', endOfDay: true },
    ],
    [types.data],
  );

  const columns: Column<SysLog>[] = [
    { id: 'createdDate', header: '时间', sort: 'createdDate', fixed: true, cell: (l) => formatDateTime(l.createdDate), className: 'tabular-nums' },
    { id: 'operator', header: '操作人', cell: (l) => l.operatorLogin ?? '—' },
    { id: 'operationType', header: '操作类型', sort: 'operationType', cell: (l) => l.operationLabel },
    { id: 'target', header: '对象', cell: (l) => <span title={l.target ?? undefined}>{l.target ?? '—'}</span>, className: 'max-w-40 truncate' },
    { id: 'summary', header: '摘要', cell: (l) => <span title={l.summary}>{l.summary}</span>, className: 'max-w-xs truncate' },
    { id: 'ip', header: 'IP', cell: (l) => l.ip ?? '—', className: 'tabular-nums' },
    { id: 'result', header: '结果', cell: (l) => <ResultBadge result={l.result} /> },
    {
      id: 'actions',
      header: '操作',
      fixed: true,
      cell: (l) => (
        <Button variant="text" onClick={() => setOpen(l)} aria-label={`查看 ${formatDateTime(l.createdDate)} ${l.operationLabel} 的详情`}>
          详情
        </Button>
      ),
    },
  ];

  return (
    <ScreenSection title="系统日志">
      <DataTable
        id="account.sysLogs"
        label="系统日志"
        columns={columns}
        rowKey={(l) => l.id}
        result={logs}
        state={table}
        filters={filters}
        onRowActivate={(l) => setOpen(l)}
        activateHint="按 Enter 查看详情"
        emptyText="暂无数据：没有符合条件的日志"
      />
      {open && <LogDetailDialog log={open} onClose={() => setOpen(null)} />}
    </ScreenSection>
  );
}
