import { useEffect, useRef, useState } from 'react';
import * as api from '../../../../shared/api/handle-card';
import { APPLY_PAY_STATUS, APPLY_STATUS, applyCategoryLabel, deliveryLabel } from '../../../../shared/api/handle-card';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Modal } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { FlowBadge } from '../../../components/resource/status-badge';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import type { ApplyRef } from './apply-dialogs';
import { MaterialDialog } from './apply-dialogs';

const REFUND_STATE: Record<number, string> = { 0: '退款中', 1: '退款成功', 2: '退款异常' };
const time = (at: string | null) => (at ? formatDateTime(at) : '—');

/**
 * 办卡申请详情 (the drawer): the application, ★ 提交即预检's green/red list beside the materials (each
 * opened with a reason), the refunds. On a 待审核 application `a` approves and `r` opens 驳回 with its
 * preset reasons; on 制卡中 `f` opens 制卡失败 and `t` 录入快递单号 / 待领取.
 */
export function ApplyDetail({ id, onClose, onApprove, onReject, onShip }: { id: number; onClose(): void; onApprove(a: ApplyRef): void; onReject(a: ApplyRef): void; onShip(a: ApplyRef): void }) {
  const msg = useApi(api.applyMsg, { query: { id } });
  const canAudit = useAllowed(api.HANDLE_CARD_AUDITOR);
  const canShip = useAllowed(api.HANDLE_CARD_SHIPPER);
  const a = msg.data?.id === id ? msg.data : undefined;
  const [material, setMaterial] = useState<{ id: number; label: string } | null>(null);
  const pending = !!a && a.status === 1 && canAudit;
  const making = !!a && a.status === 2;
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onKey.current = (e: KeyboardEvent) => {
    if (!a || material || e.ctrlKey || e.metaKey || e.altKey || (e.target as HTMLElement | null)?.closest?.('input, textarea, select')) return;
    const k = e.key.toLowerCase();
    if (pending && k === 'a') {
      e.preventDefault();
      onApprove(a);
    } else if ((pending && k === 'r') || (making && canAudit && k === 'f')) {
      e.preventDefault();
      onReject(a);
    } else if (making && canShip && k === 't') {
      e.preventDefault();
      onShip(a);
    }
  };
  useEffect(() => {
    const listen = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener('keydown', listen);
    return () => window.removeEventListener('keydown', listen);
  }, []);
  return (
    <>
      <Modal
        open={!material}
        title={a ? `办卡申请详情 · ${a.applyNo}` : '办卡申请详情'}
        onClose={onClose}
        width="max-w-4xl"
        footer={
          <>
            <Button onClick={onClose} hotkey="Esc" autoFocus={!pending}>
              关闭
            </Button>
            {making && canAudit && a && (
              <Button variant="danger" hotkey="F" onClick={() => onReject(a)}>
                制卡失败
              </Button>
            )}
            {making && canShip && a && (
              <Button hotkey="T" onClick={() => onShip(a)}>
                {a.delivery === 2 ? '录入快递单号' : '待领取'}
              </Button>
            )}
            {pending && a && (
              <>
                <Button variant="danger" hotkey="R" onClick={() => onReject(a)}>
                  驳回
                </Button>
                <Button variant="primary" hotkey="A" autoFocus onClick={() => onApprove(a)}>
                  通过
                </Button>
              </>
            )}
          </>
        }
      >
        {!a ? (
          <p role="status" className="text-sm text-gray-600">
            {msg.error ? (msg.error instanceof Error ? msg.error.message : '加载失败') : '加载中…'}
          </p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2">
            <section aria-label="申请信息">
              <DetailList
                items={[
                  { term: '状态', value: <FlowBadge flow={APPLY_STATUS} code={a.status} /> },
                  { term: '卡类型', value: applyCategoryLabel(a.cardCategory) },
                  { term: '申请人', value: `${a.name}（${a.age}周岁）` },
                  { term: '身份证号', value: <span className="tabular-nums">{a.idNo}</span> },
                  { term: '手机号', value: <span className="tabular-nums">{a.phone}</span> },
                  { term: '区域', value: a.districtName ?? '—' },
                  a.school ? { term: '学校', value: a.school } : null,
                  { term: '领取方式', value: `${deliveryLabel(a.delivery)} · ${a.deliveryTo}` },
                  { term: '工本费', value: `${fenToYuan(a.fee)} 元（${APPLY_PAY_STATUS.label(a.payStatus)}）` },
                  a.cardNo ? { term: '卡号', value: <span className="tabular-nums">{a.cardNo}</span> } : null,
                  a.trackingNo ? { term: '快递单号', value: <span className="tabular-nums">{a.trackingNo}</span> } : null,
                  a.reason ? { term: '原因', value: a.reason } : null,
                  a.reviewerName ? { term: '审核人', value: a.reviewerName } : null,
                  { term: '申请时间', value: time(a.createdDate) },
                  a.decidedDate ? { term: '审核时间', value: time(a.decidedDate) } : null,
                  ...a.refunds.map((f) => ({ term: '退款', value: `${fenToYuan(f.amount)} 元 · ${REFUND_STATE[f.state] ?? f.state} · ${time(f.createdDate)}` })),
                ]}
              />
            </section>
            <section aria-label="提交即预检">
              <h4 className="mb-2 text-sm font-medium text-gray-900">提交即预检{a.precheckGreen ? '（全绿）' : `（${a.precheckRed.length} 项需核实）`}</h4>
              <ul className="mb-4 space-y-1 text-sm">
                {a.precheck.map((p) => (
                  <li key={p.key} className={`flex gap-2 rounded px-2 py-1 ${p.ok ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'}`}>
                    <span aria-hidden>{p.ok ? '✓' : '✗'}</span>
                    <span className="sr-only">{p.ok ? '通过' : '未通过'}</span>
                    <span className="w-24 shrink-0 font-medium">{p.label}</span>
                    <span>{p.note}</span>
                  </li>
                ))}
              </ul>
              <h4 className="mb-2 text-sm font-medium text-gray-900">申请材料</h4>
              {a.imagesPurged && <p className="mb-2 text-xs text-gray-600">材料已于办结满30天后清除，仅保留文件摘要（SHA-256）。</p>}
              <ul className="space-y-1 text-sm">
                {a.materials.map((m) => (
                  <li key={m.id} className="flex items-center gap-2">
                    <span className="w-28 shrink-0">{m.label}</span>
                    <span className="text-xs text-gray-500 tabular-nums">
                      {m.width && m.height ? `${m.width}×${m.height} · ` : ''}
                      {Math.ceil(m.bytes / 1024)}KB
                    </span>
                    {m.purged ? (
                      <span className="text-xs text-gray-500" title={m.sha256}>
                        已清除
                      </span>
                    ) : (
                      <Button onClick={() => setMaterial({ id: m.id, label: m.label })}>查看</Button>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          </div>
        )}
      </Modal>
      {material && a && <MaterialDialog applyId={a.id} material={material} onClose={() => setMaterial(null)} />}
    </>
  );
}
