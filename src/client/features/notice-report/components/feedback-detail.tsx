import { useState } from 'react';
import * as api from '../../../../shared/api/feedback';
import { FEEDBACK_CATEGORY, FEEDBACK_REPLY_MAX, FEEDBACK_STATUS, type Feedback } from '../../../../shared/api/feedback';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { Modal } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { api as http } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';

type Detail = NonNullable<ReturnType<typeof useApi<typeof api.feedbackById>>['data']>;
type Image = { id: number; label: string; dataUrl: string };

const time = (at: string | null) => (at ? formatDateTime(at, 'YYYY-MM-DD HH:mm') : '—');
const PAY: Record<number, string> = { 0: '未支付', 1: '已支付', 2: '已退款' };

/** Who may act on an open item: it is nobody's or this handler's, or an administrator takes it over. */
export function openFor(f: Pick<Feedback, 'status' | 'handlerId'>, me: number | undefined, admin: boolean): 'own' | 'takeOver' | null {
  if (f.status !== 0 && f.status !== 3) return null;
  if (f.status === 0 || f.handlerId === me) return 'own';
  return admin ? 'takeOver' : null;
}

/**
 * An image or the contact phone, opened with a reason the log keeps (查看原因, at least 4 characters):
 * the server answers no-store; what is opened stays in this drawer only.
 */
function Material({ f }: { f: Detail }) {
  const [reason, setReason] = useState('');
  const [images, setImages] = useState<Image[]>([]);
  const [phone, setPhone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = (fileId?: number) => {
    if ([...reason.trim()].length < 4) return toast.error('请先填写查看原因（至少4个字）');
    setBusy(true);
    http
      .call(api.feedbackMaterial, { body: { id: f.id, reason, ...(fileId ? { fileId } : {}) } })
      .then((m) => {
        if (m.image) setImages((prev) => [...prev.filter((i) => i.id !== m.image!.id), m.image!]);
        if (m.contactPhone) setPhone(m.contactPhone);
      })
      // The refusal is in the toast.
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  if (!f.images.length && !f.contactPhone) return null;
  return (
    <section aria-label="图片与联系电话" className="mt-3 rounded border border-gray-200 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <label className="flex items-center gap-1 whitespace-nowrap">
          查看原因
          <input
            aria-label="查看原因"
            className="h-7 w-56 rounded border border-gray-300 px-1"
            maxLength={100}
            placeholder="如 核实乘客所述车内情况"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            // Enter here is not the reply's save.
            onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
          />
        </label>
        {f.images.map((img) => (
          <Button key={img.id} disabled={busy || img.purged} onClick={() => open(img.id)}>
            查看{img.label}
          </Button>
        ))}
        {f.contactPhone && (
          <Button disabled={busy} onClick={() => open()}>
            查看联系电话 {phone ?? f.contactPhone}
          </Button>
        )}
      </div>
      {images.length > 0 && (
        <div className="mt-2 flex flex-wrap gap-2">
          {images.map((img) => (
            <img key={img.id} src={img.dataUrl} alt={img.label} className="max-h-48 rounded border border-gray-200" />
          ))}
        </div>
      )}
    </section>
  );
}

/**
 * 意见反馈 opened (Enter in the queue): what the rider wrote, the images (opened with a reason), ★ the
 * rider's own rides around that time and ★ the other items on the same bus within the hour, ticked to
 * be answered with this reply. Type the reply, Ctrl+Enter saves and the next item opens; Esc leaves.
 */
export function FeedbackDetail({
  id,
  position,
  onClose,
  onReplied,
  onDecline,
}: {
  id: number;
  /** `3 / 58` in the queue. */
  position?: string;
  onClose(): void;
  onReplied(answered: number[]): void;
  onDecline(f: Detail, takeOver: boolean): void;
}) {
  const detail = useApi(api.feedbackById, { query: { id } });
  const f = detail.data?.id === id ? detail.data : undefined;
  const me = useCurrentUser().data?.aId;
  const canHandle = useAllowed(api.FEEDBACK_HANDLER);
  const admin = useAllowed(api.FEEDBACK_REOPENER);
  const may = f && canHandle ? openFor(f, me, admin) : null;
  // The cluster's open items this handler may answer, ticked by default: the cluster is answered once.
  const answerable = (f?.cluster ?? []).filter((c) => openFor(c, me, admin));
  const [unticked, setUnticked] = useState<Set<number>>(new Set());
  const ticked = answerable.filter((c) => !unticked.has(c.id)).map((c) => c.id);
  const form = useContractForm(api.feedbackReply, {
    initial: { reply: '' },
    toInput: (v) => ({ body: { id, fromStatus: (f?.status === 3 ? 3 : 0) as 0 | 3, reply: v.reply, ...(ticked.length ? { clusterIds: ticked } : {}), ...(may === 'takeOver' ? { takeOver: true } : {}) } }),
    success: (r) =>
      [`已回复意见反馈#${r.id}`, r.alsoAnswered.length ? `同车同时段另 ${r.alsoAnswered.length} 条一并回复` : '', r.skipped.length ? `${r.skipped.length} 条未回复：${r.skipped.map((s) => `#${s.id} ${s.msg}`).join('；')}` : '']
        .filter(Boolean)
        .join('，'),
    onSaved: (r) => onReplied([r.id, ...r.alsoAnswered]),
  });
  const claim = () =>
    http
      .call(api.feedbackAssign, { body: { id, ...(may === 'takeOver' ? { takeOver: true } : {}) } })
      .then((after) => {
        toast.success(`已认领意见反馈#${after.id}`);
        void detail.mutate();
      })
      .catch(() => undefined);
  const held = f && f.status === 3 && f.handlerId !== me ? f.handlerName : null;
  return (
    <Modal
      open
      title={f ? `意见反馈#${f.id}${position ? `（${position}）` : ''}` : '意见反馈'}
      onClose={onClose}
      width="max-w-4xl"
      dirty={form.dirty}
      onSubmit={may ? () => void form.submit() : undefined}
      footer={
        <>
          <Button onClick={onClose} hotkey="Esc" autoFocus={!may}>
            关闭
          </Button>
          {f && may && f.status === 0 && (
            <Button onClick={() => void claim()} title="认领后他人不能处理">
              认领
            </Button>
          )}
          {f && may && (
            <Button variant="danger" onClick={() => onDecline(f, may === 'takeOver')}>
              不处理
            </Button>
          )}
          {f && may && (
            <Button type="submit" variant="primary" disabled={form.busy} hotkey="Ctrl+Enter">
              {form.busy ? '提交中…' : ticked.length ? `回复（含同车同时段 ${ticked.length} 条）并处理下一条` : '回复并处理下一条'}
            </Button>
          )}
        </>
      }
    >
      {!f ? (
        <p role="status" className="text-sm text-gray-600">
          {detail.error ? `加载失败：${detail.error instanceof Error ? detail.error.message : String(detail.error)}` : '加载中…'}
        </p>
      ) : (
        <>
          <DetailList
            items={[
              { term: '状态', value: <FlowBadge flow={FEEDBACK_STATUS} code={f.status} /> },
              { term: '类型', value: <FlowBadge flow={FEEDBACK_CATEGORY} code={f.category} /> },
              { term: '乘客', value: <span className="tabular-nums">{f.riderPhone}</span> },
              { term: '区域', value: f.districtName ?? '—' },
              { term: '线路 / 车辆', value: [f.lineCode ? `${f.lineName ?? f.lineCode}` : '', f.busNo ?? ''].filter(Boolean).join(' · ') || '—' },
              { term: '发生时间', value: time(f.occurredAt) },
              { term: '提交时间', value: time(f.createdDate) },
              { term: '处理期限', value: <span className={f.overdue ? 'font-medium text-red-700' : ''}>{`${time(f.dueAt)}${f.overdue ? '（已超时）' : ''}`}</span> },
              { term: '处理人', value: f.handlerName ?? '—' },
            ]}
          />
          <section aria-label="反馈内容" className="mt-3 whitespace-pre-wrap rounded border border-gray-200 bg-gray-50 p-3 text-sm text-gray-800">
            {f.content}
          </section>
          {f.reply && (
            <section aria-label="回复内容" className="mt-2 rounded border border-green-200 bg-green-50 p-3 text-sm">
              <span className="text-gray-600">回复（{time(f.repliedAt)}）：</span>
              {f.reply}
            </section>
          )}
          {f.closeReason && (
            <section aria-label="不处理原因" className="mt-2 rounded border border-gray-200 bg-gray-50 p-3 text-sm">
              <span className="text-gray-600">不处理原因：</span>
              {f.closeReason}
            </section>
          )}
          <Material f={f} />
          <section aria-label="关联乘车" className="mt-3 text-sm">
            <h3 className="mb-1 font-medium text-gray-800">关联乘车（乘客本人前后30分钟）</h3>
            {f.rides.length ? (
              <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label="关联乘车记录（可横向滚动）">
                <table aria-label="关联乘车记录" className="w-full [&_td]:px-2 [&_td]:whitespace-nowrap [&_th]:px-2 [&_th]:whitespace-nowrap">
                  <thead>
                    <tr className="border-b text-left text-gray-600">
                      <th>乘车时间</th>
                      <th>线路</th>
                      <th>车辆</th>
                      <th>站点</th>
                      <th>卡号</th>
                      <th className="text-right">金额（元）</th>
                      <th>支付</th>
                      <th>支付订单</th>
                    </tr>
                  </thead>
                  <tbody>
                    {f.rides.map((r) => (
                      <tr key={r.id} className="border-b">
                        <td className="tabular-nums">{formatDateTime(r.rideAt, 'MM-DD HH:mm:ss')}</td>
                        <td>{r.lineName}</td>
                        <td>{r.busName}</td>
                        <td>{r.stationName ?? '—'}</td>
                        <td className="tabular-nums">{r.cardNo}</td>
                        <td className="text-right tabular-nums">{fenToYuan(r.amount)}</td>
                        <td>{`${PAY[r.payStatus] ?? r.payStatus} · ${r.payChannel}`}</td>
                        <td className="tabular-nums">{r.orderNo}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p className="text-gray-500">前后30分钟内没有该乘客的乘车记录</p>
            )}
          </section>
          {f.cluster.length > 0 && (
            <section aria-label="同车同时段" className="mt-3 rounded border border-amber-200 bg-amber-50 p-3 text-sm">
              <h3 className="mb-1 font-medium text-amber-900">{`同车同时段 ${f.cluster.length + 1} 条（${f.busNo ?? ''} 前后1小时）`}</h3>
              <ul className="space-y-1">
                {f.cluster.map((c) => {
                  const can = !!openFor(c, me, admin) && !!may;
                  return (
                    <li key={c.id} className="flex items-start gap-2">
                      <input
                        type="checkbox"
                        aria-label={`一并回复 #${c.id}`}
                        className="mt-1 size-4 accent-[var(--theme)]"
                        disabled={!can}
                        checked={can && !unticked.has(c.id)}
                        onChange={(e) =>
                          setUnticked((prev) => {
                            const next = new Set(prev);
                            if (e.target.checked) next.delete(c.id);
                            else next.add(c.id);
                            return next;
                          })
                        }
                      />
                      <span className="tabular-nums text-gray-600">#{c.id}</span>
                      <FlowBadge flow={FEEDBACK_STATUS} code={c.status} />
                      <span className="tabular-nums text-gray-600">{time(c.occurredAt)}</span>
                      <span>{c.content}</span>
                      {c.handlerName && c.status === 3 && <span className="text-gray-500">（{c.handlerName}处理中）</span>}
                    </li>
                  );
                })}
              </ul>
            </section>
          )}
          {may ? (
            <div className="mt-3">
              <FormError>{form.errors['']}</FormError>
              {held && <p className="mb-2 text-sm text-amber-800">{`该反馈正由${held}处理；保存回复即接管。`}</p>}
              <TextAreaField
                label="回复内容"
                required
                autoFocus
                rows={4}
                maxLength={FEEDBACK_REPLY_MAX}
                placeholder="乘客可在小程序看到回复；Ctrl+Enter 保存并打开下一条"
                value={form.values.reply}
                onChange={(e) => form.set('reply', e.target.value)}
                error={form.errors.reply}
              />
            </div>
          ) : (
            held && <p className="mt-3 text-sm text-gray-600">{`该反馈正由${held}处理`}</p>
          )}
        </>
      )}
    </Modal>
  );
}
