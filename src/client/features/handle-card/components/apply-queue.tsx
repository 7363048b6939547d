import { useRef } from 'react';
import * as api from '../../../../shared/api/handle-card';
import { APPLY_STATUS, type HandleApplyDetail, REJECT_PRESETS, applyCategoryLabel, deliveryLabel } from '../../../../shared/api/handle-card';
import { fenToYuan } from '../../../../shared/domain/money';
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

const MATERIAL_REASON = '办卡审核比对申请材料';
const newKey = () => crypto.randomUUID().replaceAll('-', '');

/** The material call answers a data URL; the queue frame takes its type and bytes apart. */
function splitDataUrl(url: string): { mime: string; dataBase64: string } | null {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { mime: m[1]!, dataBase64: m[2]! } : null;
}

function itemOf(d: HandleApplyDetail, mine: boolean, takeOver: (() => void) | null): ReviewItem {
  const notice =
    d.status !== 1
      ? `该申请${APPLY_STATUS.label(d.status)}${d.reason ? `：${d.reason}` : ''}`
      : d.claimById !== null && !mine
        ? api.REFUSALS.claimedBy(d.claimByName ?? '他人')
        : !mine
          ? '按 Enter 领取后才能审核'
          : null;
  return {
    key: d.id * 1000 + d.status * 10 + (mine ? 1 : 0),
    heading: `办卡申请 ${d.applyNo}`,
    badges: <FlowBadge flow={APPLY_STATUS} code={d.status} />,
    fields: [
      { term: '卡类型', value: applyCategoryLabel(d.cardCategory) },
      { term: '申请人', value: `${d.name}（${d.age}周岁${d.guardianConsent ? '，监护人已同意' : ''}）` },
      { term: '身份证号', value: <span className="tabular-nums">{d.idNo}</span> },
      { term: '手机号', value: <span className="tabular-nums">{d.phone}</span> },
      ...(d.school ? [{ term: '学校', value: d.school }] : []),
      { term: '领取方式', value: `${deliveryLabel(d.delivery)} · ${d.deliveryTo}` },
      { term: '工本费', value: `${fenToYuan(d.fee)} 元` },
      { term: '区域', value: d.districtName ?? '—' },
      { term: '申请时间', value: formatDateTime(d.createdDate) },
      ...(d.decidedDate ? [{ term: '审核', value: `${d.reviewerName ?? '—'} · ${formatDateTime(d.decidedDate)}` }] : []),
      ...(d.cardNo ? [{ term: '卡号', value: <span className="tabular-nums">{d.cardNo}</span> }] : []),
    ],
    // 证件照 first, then both sides of the id, then the proofs: 1–5 switch among them.
    materials: d.materials.map((m) => ({ id: m.id, label: m.label, purged: m.purged || d.imagesPurged })),
    // ★ 提交即预检: what the server measured at submission, green or red.
    checks: d.precheck.map((c) => ({ label: c.label, ok: c.ok, detail: c.note })),
    decidable: mine,
    notice,
    takeOver,
    approveNote: null,
  };
}

/**
 * 办卡审核队列: the review-queue frame (components/review-queue) over 线上办卡's calls, as 验卡's is.
 * Enter claims the oldest 待审核 in the area nobody else holds; `a` 通过 (a pool number reserved), `r`
 * and 1–9 驳回 with a preset reason; Ctrl+Enter confirms and takes the next; skipping gives the claim
 * back; leaving gives back the one held.
 */
export function ApplyQueue({ start, onClose }: { start: QueueStart; onClose(): void }) {
  const me = useCurrentUser().data?.aId;
  const canDecide = useAllowed(api.HANDLE_CARD_AUDITOR);
  const canTakeOver = useAllowed(api.HANDLE_CARD_TAKEOVER) && canDecide;
  const revalidate = useRevalidate();
  const total = useApi(api.applyTotal, { query: {} });
  const q = useClaimQueue<HandleApplyDetail>(start, me, {
    claim: (body) => http.call(api.applyClaim, { body }),
    msg: (id) => http.call(api.applyMsg, { query: { id } }),
    release: (id) => http.call(api.applyRelease, { body: { id } }, { silent: true }),
    endpoints: { claim: api.applyClaim, release: api.applyRelease },
    pending: 1,
    skipMax: api.AUDIT_BATCH_MAX,
  });
  // One key per application and decision: a retry after a lost answer is answered as the first.
  const keys = useRef(new Map<string, string>());
  const keyFor = (id: number, to: number) => {
    const k = `${id}:${to}`;
    if (!keys.current.has(k)) keys.current.set(k, newKey());
    return keys.current.get(k)!;
  };
  const decide = async (body: { toStatus: 2 | 3; reason?: string }) => {
    const d = q.detail;
    if (!d) return false;
    try {
      const r = await http.call(api.applyAudit, { body: { id: d.id, fromStatus: 1, ...body, idempotencyKey: keyFor(d.id, body.toStatus) } });
      const said = body.toStatus === 2 ? `已通过 ${r.apply.applyNo}，预留卡号 ${r.apply.cardNo ?? ''}` : `已驳回 ${r.apply.applyNo}${r.apply.payStatus === 2 ? '，工本费原路退回' : ''}`;
      toast.success(said);
      void revalidate(api.applyAudit);
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
      title="办卡审核"
      state={q.state}
      item={d ? itemOf(d, q.mine(d), q.heldByOther(d) && canTakeOver ? () => void q.take(d.id, true) : null) : null}
      position={t ? `待审核 ${t.byStatus['1'] ?? 0} 条 · 审核中 ${t.claimed} 条 · 我认领 ${t.claimedByMe} 条` : undefined}
      lastDecision={q.lastDecision}
      presetReasons={REJECT_PRESETS}
      canDecide={canDecide}
      rejectMin={api.REASON_MIN}
      loadMaterial={async (_item, materialId) => (d ? splitDataUrl((await http.call(api.applyMaterial, { body: { id: d.id, materialId, reason: MATERIAL_REASON } })).dataUrl) : null)}
      onTake={() => void q.take()}
      onApprove={() => decide({ toStatus: 2 })}
      onReject={(reason) => decide({ toStatus: 3, reason })}
      onSkip={q.skip}
      onClose={() => {
        q.close();
        onClose();
      }}
    />
  );
}
