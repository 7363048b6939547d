import { useState } from 'react';
import * as api from '../../../../shared/api/card-verify';
import { AUTO_CHECK, CHECK_KEYS, CHECK_LABELS, VERIFY_CATEGORY, VERIFY_STATUS, type VerifyApplication } from '../../../../shared/api/card-verify';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { flowFilter, textFilter, timeFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, listSummary, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { BatchApproveDialog, RevokeDialog } from '../components/verify-dialogs';
import { DueRadar, RADAR_SPANS } from '../components/due-radar';
import { type QueueStart, VerifyQueue } from '../components/verify-queue';

const failed = (a: VerifyApplication) => CHECK_KEYS.filter((k) => !a.checks[k]).map((k) => CHECK_LABELS[k]);

const columns: ListColumn<typeof api.verifyPageByBody>[] = [
  { id: 'applyNo', header: '申请号', fixed: true, cell: (a) => <span className="tabular-nums">{a.applyNo}</span> },
  { id: 'cardNo', header: '卡号', cell: (a) => <span className="tabular-nums">{a.cardNo}</span> },
  { id: 'category', header: '卡类型', cell: (a) => <FlowBadge flow={VERIFY_CATEGORY} code={a.cardCategory} /> },
  { id: 'name', header: '姓名', cell: (a) => a.name },
  { id: 'idNo', header: '身份证号', cell: (a) => a.idNo, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'phone', header: '手机号', cell: (a) => a.phone, className: 'tabular-nums', hiddenByDefault: true },
  { id: 'age', header: '年龄', align: 'right', cell: (a) => (a.age === null ? '—' : a.age), className: 'tabular-nums' },
  { id: 'faceScore', header: '人脸分', sort: 'faceScore', align: 'right', cell: (a) => a.faceScore ?? '—', className: 'tabular-nums' },
  {
    id: 'autoCheck',
    header: '自动核验',
    cell: (a) => (a.autoPass ? <FlowBadge flow={AUTO_CHECK} code={1} /> : <span className="text-red-800" title={failed(a).join('、')}>✗ {failed(a).join('、')}</span>),
  },
  {
    id: 'status',
    header: '审核状态',
    cell: (a) => (
      <span className="inline-flex items-center gap-1">
        <FlowBadge flow={VERIFY_STATUS} code={a.status} />
        {a.claimByName && <span className="text-xs text-orange-800">{a.claimByName}审核中</span>}
        {a.status === 1 && a.suspendedDate && (
          <span className="text-xs text-red-800" title={`逾期未验卡，${formatDateTime(a.suspendedDate)} 起暂停优惠，重新验卡通过后恢复`}>
            优惠已暂停
          </span>
        )}
      </span>
    ),
  },
  { id: 'reason', header: '驳回原因', cell: (a) => a.reason ?? '—', hiddenByDefault: true },
  { id: 'reviewer', header: '审核人', cell: (a) => a.reviewerName ?? '—' },
  { id: 'validUntil', header: '有效期至', cell: (a) => a.validUntil ?? '—', className: 'tabular-nums' },
  { id: 'district', header: '区域', cell: (a) => a.districtName ?? '—', hiddenByDefault: true },
  { id: 'createdDate', header: '申请时间', sort: 'createdDate', cell: (a) => formatDateTime(a.createdDate), className: 'tabular-nums' },
  { id: 'reviewedDate', header: '审核时间', sort: 'reviewedDate', cell: (a) => (a.reviewedDate ? formatDateTime(a.reviewedDate) : '—'), className: 'tabular-nums', hiddenByDefault: true },
];

type Tab = 'records' | 'radar';
type Open = { kind: 'queue'; start: QueueStart } | { kind: 'revoke'; row: VerifyApplication } | { kind: 'batch' } | null;

/**
 * 验卡记录 (ListCardVerify): the area's applications with their summary, filters (the id number only
 * in memory) and export; Enter on a pending row reviews it in the queue (claimed), on another shows
 * it; 审核队列 takes the next pending by Enter; 批量通过 the all-green; 撤销通过 with a reason; and
 * ★ 到期雷达 in its own tab.
 */
export function CardVerifyPage() {
  const canAudit = useAllowed(api.CARD_VERIFY_AUDITOR);
  const list = useResourceList({
    endpoint: api.verifyPageByBody,
    record: 'cardVerify',
    filters: {
      status: flowFilter(VERIFY_STATUS),
      category: flowFilter(VERIFY_CATEGORY),
      autoCheck: flowFilter(AUTO_CHECK),
      applyNo: textFilter('申请号', { maxLength: 40 }),
      cardNo: textFilter('卡号', { maxLength: 16 }),
      idNo: textFilter('身份证号', { maxLength: 18, placeholder: '完整18位' }),
      startTime: timeFilter('开始时间'),
      endTime: timeFilter('结束时间', { endOfDay: true }),
    },
    privateFilters: ['idNo'],
    summary: listSummary(api.verifyTotalByBody, '验卡统计', (t) => {
      const s = (c: number) => t.byStatus[String(c)] ?? 0;
      return `共 ${t.total} 条 · 待审核 ${t.pending}（审核中 ${t.claimed}，我认领 ${t.claimedByMe}，自动核验全部通过 ${t.pendingGreen}） · 已通过 ${s(1)} · 已驳回 ${s(2)} · 已撤销 ${s(3)} · 今日已审 ${t.decidedToday} · 逾期暂停优惠 ${t.suspended}`;
    }),
  });
  const [tab, setTab] = useState<Tab>('records');
  const [days, setDays] = useState<number>(90);
  const [open, setOpen] = useState<Open>(null);
  // The id number stays out of the export (a task's filters are stored).
  const { idNo: _idNo, ...exportFilters } = list.filterQuery as Record<string, string>;
  const exporter = useExportAction({ on: ['cardVerify', 'card-verify-list', 'export'], endpoint: api.verifyExport, filters: exportFilters as never, refusal: list.refusal });

  useScreenAction(['cardVerify', 'card-verify-list', 'next'], () => setOpen({ kind: 'queue', start: { kind: 'next' } }));
  useScreenAction(['cardVerify', 'card-verify-list', 'batch'], () => canAudit && setOpen({ kind: 'batch' }));
  useScreenAction(['cardVerify', 'card-verify-list', 'radar'], (args) => {
    const n = Number(args.get('days'));
    setDays(RADAR_SPANS.find((d) => d >= n) ?? 90);
    setTab('radar');
  });

  const actions = useRowActions<VerifyApplication>(
    [
      {
        id: 'open',
        label: (a) => (a.status === 0 && canAudit ? '审核' : '详情'),
        primary: true,
        permission: api.verifyMsg.permission,
        open: (a) => setOpen({ kind: 'queue', start: a.status === 0 && canAudit ? { kind: 'review', id: a.id } : { kind: 'view', id: a.id } }),
      },
      { id: 'revoke', label: '撤销通过', hotkey: 'v', danger: true, permission: api.CARD_VERIFY_REVOKER, when: (a) => a.status === 1, open: (a) => setOpen({ kind: 'revoke', row: a }) },
    ],
    (a) => `验卡申请 ${a.applyNo}`,
  );

  return (
    <ScreenSection title="验卡记录">
      <div role="tablist" aria-label="线上验卡" className="mb-3 flex flex-wrap gap-2">
        <Button role="tab" aria-selected={tab === 'records'} variant={tab === 'records' ? 'primary' : 'default'} onClick={() => setTab('records')}>
          验卡记录
        </Button>
        <Button role="tab" aria-selected={tab === 'radar'} variant={tab === 'radar' ? 'primary' : 'default'} onClick={() => setTab('radar')}>
          ★ 到期雷达
        </Button>
      </div>
      {tab === 'radar' ? (
        <DueRadar days={days} onDays={setDays} />
      ) : (
        <ResourceTable
          list={list}
          actions={actions}
          id="cardVerify.page"
          label="验卡记录列表"
          columns={columns}
          rowKey={(a) => a.id}
          emptyText={list.table.filters.applyNo || list.table.filters.cardNo || list.table.filters.idNo ? '暂无数据：申请号、卡号和身份证号需完整输入' : '暂无数据'}
          toolbar={
            <>
              {canAudit && (
                <Button variant="primary" onClick={() => setOpen({ kind: 'queue', start: { kind: 'next' } })} title="按 Enter 领取下一条待审核申请">
                  审核队列
                </Button>
              )}
              {canAudit && <Button onClick={() => setOpen({ kind: 'batch' })}>批量通过自动核验</Button>}
              <ExportButton action={exporter} />
            </>
          }
        />
      )}
      {open?.kind === 'queue' && <VerifyQueue start={open.start} onClose={() => setOpen(null)} />}
      {open?.kind === 'revoke' && <RevokeDialog row={open.row} onClose={() => setOpen(null)} />}
      {open?.kind === 'batch' && <BatchApproveDialog onClose={() => setOpen(null)} />}
    </ScreenSection>
  );
}
