import { useState } from 'react';
import { type SysLog, system } from '../../../../shared/api';
import { formatDateTime } from '../../../../shared/domain/time';
import { choiceFilter, optionsFrom, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { ScreenSection } from '../../../components/screen-section';
import { LogDetailDialog } from '../components/log-detail-dialog';
import { ResultBadge } from '../components/result-badge';

const columns: ListColumn<typeof system.sysLogPage>[] = [
  { id: 'createdDate', header: '时间', sort: 'createdDate', fixed: true, cell: (l) => formatDateTime(l.createdDate), className: 'tabular-nums' },
  { id: 'operator', header: '操作人', cell: (l) => l.operatorLogin ?? '—' },
  { id: 'operationType', header: '操作类型', sort: 'operationType', cell: (l) => l.operationLabel },
  { id: 'target', header: '对象', cell: (l) => <span title={l.target ?? undefined}>{l.target ?? '—'}</span>, className: 'max-w-40 truncate' },
  { id: 'summary', header: '摘要', cell: (l) => <span title={l.summary}>{l.summary}</span>, className: 'max-w-xs truncate' },
  { id: 'ip', header: 'IP', cell: (l) => l.ip ?? '—', className: 'tabular-nums' },
  { id: 'result', header: '结果', cell: (l) => <ResultBadge result={l.result} /> },
];

/** 系统日志 (ListSysLog): who did what, when, from where, and what it changed. */
export function SysLogPage() {
  const list = useResourceList({
    endpoint: system.sysLogPage,
    filters: {
      operationType: choiceFilter('操作类型', optionsFrom(system.sysLogOperationTypes, (types) => types.map((t) => ({ value: t.value, label: t.label })))),
      operator: textFilter('操作人', { placeholder: '登录名' }),
      result: choiceFilter('结果', [
        { value: '1', label: '成功' },
        { value: '0', label: '失败' },
      ]),
      startTime: timeFilter('开始时间'),
      endTime: timeFilter('结束时间', { endOfDay: true }),
    },
  });
  const [open, setOpen] = useState<SysLog | null>(null);
  // A log row is read, never changed: one action, and its name says which entry it opens.
  const actions = useRowActions<SysLog>(
    [{ id: 'detail', label: '详情', fullLabel: '查看详情', primary: true, permission: system.sysLogPage.permission, spoken: (_l, name) => `查看 ${name} 的详情`, open: setOpen }],
    (l) => `${formatDateTime(l.createdDate)} ${l.operationLabel}`,
  );
  return (
    <ScreenSection title="系统日志">
      <ResourceTable list={list} actions={actions} id="account.sysLogs" label="系统日志" columns={columns} rowKey={(l) => l.id} emptyText="暂无数据：没有符合条件的日志" />
      {open && <LogDetailDialog log={open} onClose={() => setOpen(null)} />}
    </ScreenSection>
  );
}
