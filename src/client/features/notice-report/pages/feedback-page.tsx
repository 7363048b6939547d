import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import * as api from '../../../../shared/api/feedback';
import { FEEDBACK_CATEGORY, FEEDBACK_STATUS, type Feedback } from '../../../../shared/api/feedback';
import { pagePath } from '../../../../shared/modules';
import { formatDateTime } from '../../../../shared/domain/time';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter, timeFilter, yesNoFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { callAction, useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useCurrentUser } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useScreenLocation } from '../../../lib/screen-context';
import { DeclineDialog, type FeedbackRef } from '../components/feedback-decline';
import { FeedbackDetail, openFor } from '../components/feedback-detail';

const minute = (at: string | null) => (at ? formatDateTime(at, 'YYYY-MM-DD HH:mm') : '—');
const excerpt = (s: string) => (s.length > 28 ? `${s.slice(0, 28)}…` : s);

const columns: ListColumn<typeof api.feedbackPage>[] = [
  { id: 'id', header: '编号', fixed: true, cell: (f) => <span className="tabular-nums">#{f.id}</span> },
  {
    id: 'content',
    header: '反馈内容',
    cell: (f) => (
      <span title={f.content}>
        {excerpt(f.content)}
        {f.imageCount > 0 && <span className="ml-1 text-xs text-gray-500">[图{f.imageCount}]</span>}
      </span>
    ),
  },
  { id: 'category', header: '类型', cell: (f) => <FlowBadge flow={FEEDBACK_CATEGORY} code={f.category} /> },
  { id: 'rider', header: '乘客', cell: (f) => f.riderPhone, className: 'tabular-nums' },
  { id: 'line', header: '线路 / 车辆', cell: (f) => [f.lineName ?? f.lineCode, f.busNo].filter(Boolean).join(' · ') || '—' },
  {
    id: 'cluster',
    header: '同车同时段',
    cell: (f) => (f.clusterSize > 1 ? <span className="rounded bg-amber-50 px-1 text-xs text-amber-800">{`同车同时段 ${f.clusterSize} 条`}</span> : '—'),
  },
  { id: 'rides', header: '关联乘车', align: 'right', cell: (f) => f.linkedRides, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'status', header: '状态', cell: (f) => <FlowBadge flow={FEEDBACK_STATUS} code={f.status} /> },
  { id: 'handler', header: '处理人', cell: (f) => f.handlerName ?? '—' },
  {
    id: 'dueAt',
    header: '处理期限',
    sort: 'dueAt',
    className: 'tabular-nums',
    cell: (f) => (
      <span>
        {minute(f.dueAt)}
        {f.overdue && <span className="ml-1 rounded bg-red-50 px-1 text-xs text-red-700">超时</span>}
      </span>
    ),
  },
  { id: 'createdDate', header: '提交时间', sort: 'createdDate', cell: (f) => minute(f.createdDate), className: 'tabular-nums' },
];

type Open = { kind: 'detail'; id: number } | { kind: 'decline'; f: FeedbackRef; takeOver: boolean; back: boolean } | null;

/** The triage queue: 未处理, the soonest due first. */
const QUEUE = { status: 0, sort: 'dueAt,asc' };

/**
 * 意见反馈 (ListFeedback): the area's feedback with its summary line and export. It opens on the
 * triage queue (未处理 by due time): j/k, Enter opens the item with the rider's rides and the cluster
 * on the same bus, the reply is typed and Ctrl+Enter saves it and opens the next one; Esc leaves.
 * Row keys: c 认领, r 回复, n 不处理, o 重新打开 (管理员).
 */
export function FeedbackPage() {
  const me = useCurrentUser().data?.aId;
  const admin = useAllowed(api.FEEDBACK_REOPENER);
  const list = useResourceList({
    endpoint: api.feedbackPage,
    record: 'feedback',
    filters: {
      status: flowFilter(FEEDBACK_STATUS),
      category: flowFilter(FEEDBACK_CATEGORY),
      lineCode: textFilter('线路编号', { maxLength: 20 }),
      overdue: yesNoFilter('是否超时', '已超时', '未超时'),
      mine: yesNoFilter('处理人', '我处理的', '全部'),
      startTime: timeFilter('开始时间'),
      endTime: timeFilter('结束时间', { endOfDay: true }),
    },
    summary: listSummary(api.feedbackSummary, '意见反馈统计', (t) => {
      const b = t.byStatus;
      return `共 ${t.total} 条 · 未处理 ${b.open} · 处理中 ${b.handling} · 已处理 ${b.replied} · 不处理 ${b.declined} · 超时 ${t.overdue} · 回复用时中位数 ${t.medianReplyHours === null ? '—' : `${t.medianReplyHours} 小时`}`;
    }),
  });
  const { table } = list;
  const [open, setOpen] = useState<Open>(null);
  // 只看我的 is the list's own: a task runs without the asker's session.
  const { mine: _mine, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: ['noticeReport', 'feedback', 'export'], endpoint: api.feedbackExport, filters: exportFilters as never, refusal: list.refusal });
  const [, navigate] = useLocation();
  const { search, active } = useScreenLocation();

  // Arriving with nothing asked, the page is the triage queue: once, when it is the screen shown (a
  // tab loaded in the background must not pull the address away from the page the user went on to).
  const arrived = useRef(false);
  useEffect(() => {
    if (!active || arrived.current) return;
    arrived.current = true;
    if (!new URLSearchParams(search).toString()) navigate(pagePath('noticeReport', 'feedback', { query: QUEUE }), { replace: true });
  }, [active, search, navigate]);

  // Arriving by the triage chord (g y, the palette's 待处理反馈): the item due first that this account
  // may answer opens at once, its reply field focused; with none, the queue's head row takes the focus.
  const triage = useRef(false);
  useScreenAction(['noticeReport', 'feedback', 'triage'], () => {
    triage.current = true;
  });
  useEffect(() => {
    if (!triage.current || list.table.filters.status !== '0' || list.result.isLoading || me === undefined) return;
    triage.current = false;
    const head = list.rows.find((r) => !!openFor(r, me, admin));
    if (head) setOpen({ kind: 'detail', id: head.id });
    else requestAnimationFrame(() => document.querySelector<HTMLElement>('main table[aria-label="待处理反馈队列"] tbody tr[tabindex]')?.focus());
  }, [list.rows, list.result.isLoading, list.table.filters.status, me, admin]);

  // 处理反馈 ‹编号› from the palette.
  useScreenAction(['noticeReport', 'feedback', 'open'], (args) => {
    const id = Number(args.get('id'));
    if (Number.isInteger(id) && id > 0) setOpen({ kind: 'detail', id });
  }, ['id']);

  const rows = list.rows;
  const ref = (f: FeedbackRef): FeedbackRef => ({ id: f.id, status: f.status, category: f.category, content: f.content, riderPhone: f.riderPhone, handlerId: f.handlerId, handlerName: f.handlerName });
  /** After an answer: the next open item below (else above) that this answer did not close. */
  const nextAfter = (id: number, done: readonly number[]) => {
    const openHere = (r: Feedback) => !done.includes(r.id) && !!openFor(r, me, admin);
    const i = rows.findIndex((r) => r.id === id);
    return (i >= 0 ? rows.slice(i + 1).find(openHere) : undefined) ?? rows.find(openHere) ?? null;
  };
  const may = (f: Feedback) => openFor(f, me, admin);

  const actions = useRowActions<Feedback>(
    [
      { id: 'detail', label: '处理', fullLabel: '处理反馈', primary: true, permission: api.FEEDBACK_READ, open: (f) => setOpen({ kind: 'detail', id: f.id }) },
      callAction({
        id: 'assign',
        label: (f) => (f.status === 3 ? '接管' : '认领'),
        hotkey: 'c',
        permission: api.FEEDBACK_HANDLER,
        when: (f) => f.status === 0 || (f.status === 3 && f.handlerId !== me && admin),
        endpoint: api.feedbackAssign,
        input: (f) => ({ body: { id: f.id, ...(f.status === 3 ? { takeOver: true } : {}) } }),
        done: (f) => `已${f.status === 3 ? '接管' : '认领'}意见反馈#${f.id}`,
      }),
      { id: 'reply', label: '回复', hotkey: 'r', permission: api.FEEDBACK_HANDLER, when: (f) => !!may(f), open: (f) => setOpen({ kind: 'detail', id: f.id }) },
      { id: 'decline', label: '不处理', hotkey: 'n', danger: true, permission: api.FEEDBACK_HANDLER, when: (f) => !!may(f), open: (f) => setOpen({ kind: 'decline', f: ref(f), takeOver: may(f) === 'takeOver', back: false }) },
      callAction({
        id: 'reopen',
        label: '重新打开',
        hotkey: 'o',
        permission: api.FEEDBACK_REOPENER,
        when: (f) => f.status === 1 || f.status === 2,
        endpoint: api.feedbackUpdateStatus,
        input: (f) => ({ body: { id: f.id, fromStatus: f.status, toStatus: 3 as const } }),
        done: (f) => `已重新打开意见反馈#${f.id}，交回${f.handlerName ?? '原处理人'}处理`,
        confirm: { title: '重新打开', body: (f) => <p>{`确定重新打开意见反馈#${f.id}（${FEEDBACK_STATUS.label(f.status)}）吗？原回复或不处理原因将清除，处理期限重新计算。`}</p> },
      }),
    ],
    (f) => `意见反馈#${f.id}`,
  );

  const queue = table.filters.status === '0';
  const position =
    open?.kind === 'detail'
      ? (() => {
          const i = rows.findIndex((r) => r.id === open.id);
          return i >= 0 ? `${i + 1} / ${list.result.data?.totalElements ?? rows.length}` : undefined;
        })()
      : undefined;

  return (
    <ScreenSection title="意见反馈">
      <ResourceTable
        list={list}
        actions={actions}
        id="feedback.page"
        label={queue ? '待处理反馈队列' : '意见反馈列表'}
        columns={columns}
        rowKey={(f) => f.id}
        activateHint="按 Enter 打开反馈，输入回复后 Ctrl+Enter 保存并打开下一条"
        emptyText={queue ? '没有未处理的反馈' : '暂无数据'}
        toolbar={<ExportButton action={exporter} />}
      />
      {open?.kind === 'detail' && (
        <FeedbackDetail
          key={open.id}
          id={open.id}
          position={position}
          onClose={() => setOpen(null)}
          onReplied={(done) => {
            const next = nextAfter(open.id, done);
            setOpen(next ? { kind: 'detail', id: next.id } : null);
          }}
          onDecline={(f, takeOver) => setOpen({ kind: 'decline', f: ref(f), takeOver, back: true })}
        />
      )}
      {open?.kind === 'decline' && (
        <DeclineDialog
          f={open.f}
          takeOver={open.takeOver}
          onClose={() => setOpen(open.back ? { kind: 'detail', id: open.f.id } : null)}
          onDone={() => {
            const next = open.back ? nextAfter(open.f.id, [open.f.id]) : null;
            setOpen(next ? { kind: 'detail', id: next.id } : null);
          }}
        />
      )}
    </ScreenSection>
  );
}
