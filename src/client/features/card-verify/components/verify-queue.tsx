import { useEffect, useRef, useState } from 'react';
import * as api from '../../../../shared/api/card-verify';
import { PRESET_REASONS, VERIFY_CATEGORY, VERIFY_STATUS, type VerifyDetail } from '../../../../shared/api/card-verify';
import { formatDateTime } from '../../../../shared/domain/time';
import { type QueueState, type ReviewItem, ReviewQueue } from '../../../components/review-queue/review-queue';
import { FlowBadge } from '../../../components/resource/status-badge';
import { api as http } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';

/** What the queue opens on: the next pending (Enter), one application to review (claimed), or one to look at. */
export type QueueStart = { kind: 'next' } | { kind: 'review'; id: number } | { kind: 'view'; id: number };

const MATERIAL_REASON = '验卡审核比对申请材料';

function itemOf(d: VerifyDetail, me: number | undefined, takeOver: ((id: number) => void) | null): ReviewItem {
  const mine = d.status === 0 && d.claimById !== null && d.claimById === me;
  const face = d.checkList.find((c) => c.key === 'face');
  const notice =
    d.status !== 0
      ? `该申请${VERIFY_STATUS.label(d.status)}${d.reason ? `：${d.reason}` : ''}`
      : d.claimById !== null && d.claimById !== me
        ? api.REFUSAL.claimedBy(d.claimByName ?? '他人')
        : !mine
          ? '按 Enter 领取后才能审核'
          : d.cardState !== 1
            ? `卡片当前状态为「${d.cardStateLabel}」`
            : null;
  return {
    key: d.id * 1000 + d.status * 10 + (mine ? 1 : 0),
    heading: `验卡申请 ${d.applyNo}`,
    badges: (
      <>
        <FlowBadge flow={VERIFY_CATEGORY} code={d.cardCategory} />
        <FlowBadge flow={VERIFY_STATUS} code={d.status} />
      </>
    ),
    fields: [
      { term: '卡号', value: <span className="tabular-nums">{d.cardNo}</span> },
      { term: '姓名', value: d.name },
      { term: '身份证号', value: <span className="tabular-nums">{d.idNo}</span> },
      { term: '手机号', value: <span className="tabular-nums">{d.phone}</span> },
      { term: '年龄', value: d.age === null ? '—' : `${d.age}周岁${d.guardianConsent ? '（监护人已同意）' : ''}` },
      ...(d.school ? [{ term: '学校', value: d.school }] : []),
      { term: '人脸比对', value: d.faceScore === null ? '—' : `${d.faceScore}分（阈值 ${d.config.faceThreshold}分）` },
      { term: '区域', value: d.districtName ?? '—' },
      { term: '申请时间', value: formatDateTime(d.createdDate) },
      ...(d.reviewedDate ? [{ term: '审核', value: `${d.reviewerName ?? '—'} · ${formatDateTime(d.reviewedDate)}` }] : []),
      ...(d.validUntil ? [{ term: '有效期至', value: d.validUntil }] : []),
      ...(d.revokeReason ? [{ term: '撤销原因', value: d.revokeReason }] : []),
    ],
    materials: d.materials.map((m) => ({ id: m.id, label: m.label, purged: m.purged })),
    checks: d.checkList.map((c) => ({ label: c.label, ok: c.ok, detail: c.detail })),
    decidable: mine,
    notice,
    takeOver: takeOver && d.status === 0 && d.claimById !== null && d.claimById !== me ? () => takeOver(d.id) : null,
    approveNote: face && !face.ok ? `人脸比对未通过（${d.faceScore ?? 0}分）：通过须填写人工核验说明（至少10个字）` : null,
  };
}

/**
 * 验卡审核队列: the review-queue frame over 线上验卡's calls. Enter claims the next pending
 * application in the area (oldest first, never one another reviewer holds); a decision takes the
 * next at once; skipping gives the claim back; leaving gives back the one held.
 */
export function VerifyQueue({ start, onClose }: { start: QueueStart; onClose(): void }) {
  const me = useCurrentUser().data?.aId;
  const canDecide = useAllowed(api.CARD_VERIFY_AUDITOR);
  const canTakeOver = useAllowed(api.CARD_VERIFY_TAKEOVER) && canDecide;
  const revalidate = useRevalidate();
  const total = useApi(api.verifyTotal, { query: {} });
  const [state, setState] = useState<QueueState>(start.kind === 'next' ? 'idle' : 'loading');
  const [detail, setDetail] = useState<VerifyDetail | null>(null);
  const skipped = useRef<number[]>([]);

  const show = (d: VerifyDetail | null) => {
    setDetail(d);
    setState(d ? 'ready' : 'empty');
  };
  const take = async (id?: number, takeOver = false) => {
    setState('loading');
    try {
      show(await http.call(api.verifyClaim, { body: id ? { id, ...(takeOver ? { takeOver } : {}) } : { skip: skipped.current.slice(-100) } }));
    } catch {
      // Refused (held by another, decided): show it as it is, not decidable here.
      if (id) return view(id);
      setState(detail ? 'ready' : 'idle');
    }
    void revalidate(api.verifyClaim);
  };
  const view = async (id: number) => {
    setState('loading');
    try {
      show(await http.call(api.verifyMsg, { query: { id } }));
    } catch {
      setState('idle');
    }
  };
  useEffect(() => {
    if (start.kind === 'review') void take(start.id);
    else if (start.kind === 'view') void view(start.id);
    // Once, on opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const release = () => {
    const d = detail;
    if (d && d.status === 0 && d.claimById === me) void http.call(api.verifyRelease, { body: { id: d.id } }, { silent: true }).catch(() => undefined);
  };
  const decide = async (body: { toStatus: 1 | 2; reason?: string; note?: string }) => {
    const d = detail;
    if (!d) return false;
    try {
      const after = await http.call(api.verifyAudit, { body: { id: d.id, fromStatus: 0, ...body } });
      toast.success(`验卡申请 ${after.applyNo} ${body.toStatus === 1 ? `已通过，有效期至 ${after.validUntil ?? '—'}` : '已驳回'}`);
      void revalidate(api.verifyAudit);
      await take();
      return true;
    } catch {
      return false;
    }
  };
  const t = total.data;
  return (
    <ReviewQueue
      title="验卡审核"
      state={state}
      item={detail ? itemOf(detail, me, canTakeOver ? (id) => void take(id, true) : null) : null}
      position={t ? `待审核 ${t.pending} 条 · 审核中 ${t.claimed} 条 · 今日已审 ${t.decidedToday} 条` : undefined}
      presetReasons={PRESET_REASONS}
      canDecide={canDecide}
      loadMaterial={(_item, materialId) => (detail ? http.call(api.verifyMaterial, { body: { id: detail.id, materialId, reason: MATERIAL_REASON } }) : Promise.resolve(null))}
      onTake={() => void take()}
      onApprove={(note) => decide({ toStatus: 1, ...(note ? { note } : {}) })}
      onReject={(reason) => decide({ toStatus: 2, reason })}
      onSkip={() => {
        if (detail) skipped.current.push(detail.id);
        release();
        void take();
      }}
      onClose={() => {
        release();
        void revalidate(api.verifyRelease);
        onClose();
      }}
    />
  );
}
