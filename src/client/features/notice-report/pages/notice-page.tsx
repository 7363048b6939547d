import { useState } from 'react';
import {
  NOTICE_EDITOR,
  NOTICE_PUBLISHER,
  NOTICE_STATUS,
  NOTICE_TOP,
  NOTICE_TYPE,
  type Notice,
  noticeDelete,
  noticeExport,
  noticePage,
  noticeTop,
  noticeTotal,
  noticeUpdateStatus,
} from '../../../../shared/api/notice';
import { formatDateTime } from '../../../../shared/domain/time';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { FlowBadge } from '../../../components/resource/status-badge';
import { flowFilter, textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { Button } from '../../../components/button';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { NoticeFormDialog, NoticePreviewDialog } from '../components/notice-form-dialog';
import { ScheduleDialog } from '../components/schedule-dialog';

const minute = (at: string | null) => (at ? formatDateTime(at, 'YYYY-MM-DD HH:mm') : '—');

const columns: ListColumn<typeof noticePage>[] = [
  {
    id: 'title',
    header: '标题',
    fixed: true,
    cell: (n) => (
      <span className="font-medium text-gray-800">
        {n.top === 1 && <span className="mr-1 rounded bg-red-50 px-1 text-xs text-red-700">置顶</span>}
        {n.title}
      </span>
    ),
  },
  { id: 'type', header: '类型', cell: (n) => <FlowBadge flow={NOTICE_TYPE} code={n.type} /> },
  { id: 'district', header: '区域', cell: (n) => n.districtName ?? '全市' },
  { id: 'status', header: '状态', cell: (n) => <FlowBadge flow={NOTICE_STATUS} code={n.status} /> },
  { id: 'publishAt', header: '发布时间', sort: 'publishAt', cell: (n) => (n.status === 1 ? `计划 ${minute(n.publishAt)}` : minute(n.publishAt)), className: 'tabular-nums' },
  { id: 'expireAt', header: '下线时间', cell: (n) => minute(n.expireAt), className: 'tabular-nums', hiddenByDefault: true },
  { id: 'viewCount', header: '浏览量', align: 'right', cell: (n) => n.viewCount, className: 'tabular-nums' },
  { id: 'createdBy', header: '创建人', cell: (n) => n.createdByName ?? '—' },
  { id: 'createdDate', header: '创建时间', sort: 'createdDate', cell: (n) => formatDateTime(n.createdDate), className: 'tabular-nums' },
];

/** A status move as the row saw it: the server refuses it when the notice moved meanwhile. */
const move = (n: Notice, toStatus: Notice['status'], publishAt?: string) => ({ body: { id: n.id, fromStatus: n.status, toStatus, rowVersion: n.rowVersion, ...(publishAt ? { publishAt } : {}) } });

/** The row actions of 公告管理; 编辑 and 定时发布 open the page's dialogs. */
function useNoticeActions(schedule: (n: Notice) => void, edit: (n: Notice) => void, preview: (n: Notice) => void) {
  return useRowActions<Notice>(
    [
      { id: 'preview', label: '预览', hotkey: 'v', primary: true, permission: noticePage.permission, when: () => true, open: preview },
      { id: 'edit', label: '编辑', hotkey: 'e', permission: NOTICE_EDITOR, when: (n) => n.manageable && n.status === 0, open: edit },
      callAction({
        id: 'publish',
        label: '立即发布',
        hotkey: 'p',
        permission: NOTICE_PUBLISHER,
        when: (n) => n.manageable && n.status === 0,
        endpoint: noticeUpdateStatus,
        input: (n) => move(n, 2),
        done: (n) => `已发布公告「${n.title}」`,
        confirm: { title: '立即发布', body: (n) => <p>确定立即发布公告「{n.title}」（{n.districtName ?? '全市'}）吗？发布后乘客即可在小程序看到。</p> },
      }),
      { id: 'schedule', label: '定时发布', hotkey: 't', permission: NOTICE_PUBLISHER, when: (n) => n.manageable && n.status === 0, open: schedule },
      callAction({
        id: 'unschedule',
        label: '取消定时',
        hotkey: 'c',
        permission: NOTICE_PUBLISHER,
        when: (n) => n.manageable && n.status === 1,
        endpoint: noticeUpdateStatus,
        input: (n) => move(n, 0),
        done: (n) => `已取消定时发布：公告「${n.title}」转为草稿`,
        // Back to the time it had, while that is still ahead (the server refuses a time passed).
        undo: { input: (n, moved) => ({ body: { id: n.id, fromStatus: 0 as const, toStatus: 1 as const, publishAt: n.publishAt ?? undefined, rowVersion: moved.rowVersion } }), done: (n) => `已撤销：公告「${n.title}」恢复定时发布` },
      }),
      callAction({
        id: 'withdraw',
        label: '撤回',
        hotkey: 'w',
        danger: true,
        permission: NOTICE_PUBLISHER,
        when: (n) => n.manageable && n.status === 2,
        endpoint: noticeUpdateStatus,
        input: (n) => move(n, 3),
        done: (n) => `已撤回公告「${n.title}」`,
        confirm: { title: '撤回公告', body: (n) => <p>确定撤回公告「{n.title}」（{n.districtName ?? '全市'}）吗？撤回后乘客不再看到它，置顶同时取消。</p> },
      }),
      callAction({
        id: 'top',
        label: (n) => (n.top ? '取消置顶' : '置顶'),
        hotkey: 'u',
        permission: NOTICE_PUBLISHER,
        when: (n) => n.manageable && (n.status !== 3 || n.top === 1),
        endpoint: noticeTop,
        input: (n) => ({ body: { id: n.id, top: n.top ? (0 as const) : (1 as const), rowVersion: n.rowVersion } }),
        done: (n) => `已${n.top ? '取消置顶' : '置顶'}公告「${n.title}」`,
        undo: { input: (n, pinned) => ({ body: { id: n.id, top: n.top, rowVersion: pinned.rowVersion } }), done: (n) => `已撤销：公告「${n.title}」${n.top ? '恢复置顶' : '取消置顶'}` },
      }),
      callAction({
        id: 'delete',
        label: '删除草稿',
        hotkey: 'd',
        danger: true,
        permission: NOTICE_EDITOR,
        when: (n) => n.manageable && n.status === 0,
        endpoint: noticeDelete,
        input: (n) => ({ query: { id: n.id } }),
        done: (n) => `已删除公告草稿「${n.title}」`,
        confirm: { title: '删除草稿', irreversible: true, body: (n) => <p>确定删除公告草稿「{n.title}」（{n.districtName ?? '全市'}）吗？删除后不能恢复。</p> },
      }),
    ],
    (n) => n.title,
  );
}

/** The summary line: the filtered notices by status (the status filter aside) and the pinned ones. */
/** 公告管理 (ListNotice): the area's notices and the city-wide ones, their publishing and pins. */
export function NoticePage() {
  const list = useResourceList({
    endpoint: noticePage,
    record: 'notice',
    filters: {
      title: textFilter('标题', { placeholder: '标题关键字' }),
      type: flowFilter(NOTICE_TYPE, '类型'),
      status: flowFilter(NOTICE_STATUS, '状态'),
      top: flowFilter(NOTICE_TOP),
    },
    // Counts by status over the other filters (the total's query has no status of its own).
    summary: listSummary(noticeTotal, '公告统计', (t) => `共 ${t.total} 条 · 草稿 ${t.byStatus.draft} · 待发布 ${t.byStatus.scheduled} · 已发布 ${t.byStatus.published} · 已下线 ${t.byStatus.offline} · 置顶 ${t.top}`),
  });
  const [scheduling, setScheduling] = useState<Notice | null>(null);
  // 新建 (with the palette's title, if any) or 编辑 a draft.
  const [editing, setEditing] = useState<{ notice?: Notice; title?: string } | null>(null);
  const canEdit = useAllowed(NOTICE_EDITOR);
  const [previewing, setPreviewing] = useState<Notice | null>(null);
  const actions = useNoticeActions(setScheduling, (notice) => setEditing({ notice }), setPreviewing);
  const exporter = useExportAction({ on: ['noticeReport', 'notice', 'export'], endpoint: noticeExport, filters: list.filterQuery, refusal: list.refusal });
  useScreenAction(['noticeReport', 'notice', 'add'], (args) => canEdit && setEditing({ title: args.get('title') ?? undefined }), ['title']);
  return (
    <ScreenSection title="公告管理">
      <ResourceTable
        list={list}
        actions={actions}
        id="notice.page"
        label="公告列表"
        columns={columns}
        rowKey={(n) => n.id}
        emptyText={list.table.filters.title ? '暂无数据：没有标题包含该文字的公告' : '暂无数据'}
        toolbar={
          <>
            <ExportButton action={exporter} />
            {canEdit && (
              <Button variant="primary" className="h-8" onClick={() => setEditing({})}>
                ＋ 新建公告
              </Button>
            )}
          </>
        }
      />
      {scheduling && <ScheduleDialog notice={scheduling} onClose={() => setScheduling(null)} />}
      {previewing && <NoticePreviewDialog notice={previewing} onClose={() => setPreviewing(null)} />}
      {editing && <NoticeFormDialog key={editing.notice?.id ?? 'new'} notice={editing.notice} title={editing.title} onClose={() => setEditing(null)} />}
    </ScreenSection>
  );
}
