import { type OperateRecord, operateRecordPage } from '../../../../shared/api/activity';
import { formatDateTime } from '../../../../shared/domain/time';
import { activityModule } from '../../../../shared/modules/activity';
import { codeFilter, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { ScreenSection } from '../../../components/screen-section';

/** Before → after, field by field, as the server words them. */
function Changes({ r }: { r: OperateRecord }) {
  if (!r.changes.length) return <span className="text-gray-500">—</span>;
  return (
    <ul className="space-y-0.5">
      {r.changes.map((c) => (
        <li key={c.field}>
          <span className="text-gray-600">{c.field}：</span>
          <del className="text-gray-500">{c.before}</del>
          <span aria-hidden="true"> → </span>
          <span className="sr-only">改为</span>
          <ins className="no-underline text-gray-900">{c.after}</ins>
        </li>
      ))}
    </ul>
  );
}

const columns: ListColumn<typeof operateRecordPage>[] = [
  { id: 'createdDate', header: '时间', sort: 'createdDate', fixed: true, cell: (r) => formatDateTime(r.createdDate), className: 'tabular-nums whitespace-nowrap' },
  { id: 'operator', header: '操作人', cell: (r) => r.operatorLogin ?? '系统' },
  { id: 'action', header: '操作', cell: (r) => r.operationLabel },
  { id: 'summary', header: '内容', cell: (r) => r.summary },
  { id: 'changes', header: '变更', cell: (r) => <Changes r={r} /> },
  { id: 'reason', header: '原因', cell: (r) => r.reason ?? '—' },
];

/**
 * 操作记录 (ListOperateRecord): who did what to the activities and limits, when, the fields changed
 * before → after and the reason; a view over the system log's ACTIVITY_* rows (`?activityId=` from a
 * row's 记录 narrows it to one activity).
 */
export function OperateRecordPage() {
  const list = useResourceList({
    endpoint: operateRecordPage,
    filters: {
      operationType: codeFilter('操作类型', activityModule.operations),
      operator: textFilter('操作人'),
      startTime: timeFilter('开始时间'),
      endTime: timeFilter('结束时间', { endOfDay: true }),
    },
    linkFilters: ['activityId'],
  });
  return (
    <ScreenSection title="操作记录">
      <ResourceTable list={list} id="operateRecord.page" label="操作记录" columns={columns} rowKey={(r) => r.id} />
    </ScreenSection>
  );
}
