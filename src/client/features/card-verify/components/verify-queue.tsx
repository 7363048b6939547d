import * as api from '../../../../shared/api/card-verify';
import { PRESET_REASONS, VERIFY_CATEGORY, VERIFY_STATUS, type VerifyDetail } from '../../../../shared/api/card-verify';
import { formatDateTime } from '../../../../shared/domain/time';
import { type ReviewItem, ReviewQueue } from '../../../components/review-queue/review-queue';
import { type QueueStart, useClaimQueue } from '../../../components/review-queue/use-claim-queue';
import { FlowBadge } from '../../../components/resource/status-badge';
import { api as http } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';

export type { QueueStart } from '../../../components/review-queue/use-claim-queue';

const MATERIAL_REASON = '验卡审核比对申请材料';

function itemOf(d: VerifyDetail, mine: boolean, takeOver: (() => void) | null): ReviewItem {
  const face = d.checkList.find((c) => c.key === 'face');
  const notice =
    d.status !== 0
      ? `该申请${VERIFY_STATUS.label(d.status)}${d.reason ? `：${d.reason}` : ''}`
      : d.claimById !== null && !mine
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
    takeOver,
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
  const q = useClaimQueue<VerifyDetail>(start, me, {
    claim: (body) => http.call(api.verifyClaim, { body }),
    msg: (id) => http.call(api.verifyMsg, { query: { id } }),
    release: (id) => http.call(api.verifyRelease, { body: { id } }, { silent: true }),
    endpoints: { claim: api.verifyClaim, release: api.verifyRelease },
    pending: 0,
    skipMax: 100,
  });
  const decide = async (body: { toStatus: 1 | 2; reason?: string; note?: string }) => {
    const d = q.detail;
    if (!d) return false;
    try {
      const after = await http.call(api.verifyAudit, { body: { id: d.id, fromStatus: 0, ...body } });
      const said = `验卡申请 ${after.applyNo} ${body.toStatus === 1 ? `已通过，有效期至 ${after.validUntil ?? '—'}` : '已驳回'}`;
      toast.success(said);
      void revalidate(api.verifyAudit);
      await q.decided(said);
      return true;
    } catch {
      return false;
    }
  };
  const t = total.data;
  const d = q.detail;
  return (
    <ReviewQueue
      title="验卡审核"
      state={q.state}
      item={d ? itemOf(d, q.mine(d), q.heldByOther(d) && canTakeOver ? () => void q.take(d.id, true) : null) : null}
      position={t ? `待审核 ${t.pending} 条 · 审核中 ${t.claimed} 条 · 今日已审 ${t.decidedToday} 条` : undefined}
      lastDecision={q.lastDecision}
      presetReasons={PRESET_REASONS}
      canDecide={canDecide}
      loadMaterial={(_item, materialId) => (d ? http.call(api.verifyMaterial, { body: { id: d.id, materialId, reason: MATERIAL_REASON } }) : Promise.resolve(null))}
      onTake={() => void q.take()}
      onApprove={(note) => decide({ toStatus: 1, ...(note ? { note } : {}) })}
      onReject={(reason) => decide({ toStatus: 2, reason })}
      onSkip={q.skip}
      onClose={() => {
        q.close();
        onClose();
      }}
    />
  );
}
