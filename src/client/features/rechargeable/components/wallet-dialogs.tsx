import { useRef, useState } from 'react';
import {
  ADJUST_BUCKET,
  type Adjustment,
  LEDGER_TYPE,
  WALLET_STATUS,
  type Wallet,
  type WalletStatus,
  adjust,
  adjustCheck,
  ledgerExport,
  ledgerPage,
  walletMsg,
  walletStatus,
} from '../../../../shared/api/wallet';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { DetailList } from '../../../components/resource/detail-list';
import { startExportTask } from '../../../components/resource/export-action';
import { FlowBadge } from '../../../components/resource/status-badge';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { yuanToFenText } from '../paths';

const signed = (fen: number) => `${fen > 0 ? '+' : fen < 0 ? '−' : ''}${fenToYuan(Math.abs(fen))}`;
const MOVE_LABEL: Record<WalletStatus, string> = { 2: '冻结钱包', 1: '解冻钱包', 0: '注销钱包' };

/** 冻结 / 解冻 / 注销: the reason is required and goes to the log; 注销 only at balance 0 (the server says so otherwise). */
export function WalletStatusDialog({ wallet, to, onClose }: { wallet: Pick<Wallet, 'id' | 'riderPhone' | 'status' | 'principal' | 'gift'>; to: WalletStatus; onClose(): void }) {
  const form = useContractForm(walletStatus, {
    initial: { reason: '' },
    toInput: (v) => ({ body: { id: wallet.id, fromStatus: wallet.status, toStatus: to, reason: v.reason } }),
    success: (w) => `钱包 ${w.riderPhone} 已${WALLET_STATUS.label(w.status)}`,
    onSaved: onClose,
  });
  return (
    <Modal open title={`${MOVE_LABEL[to]} · ${wallet.riderPhone}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void form.submit()} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel={MOVE_LABEL[to]} />}>
      <FormError>{form.errors['']}</FormError>
      <p className="mb-3 text-sm text-gray-700">
        本金 {fenToYuan(wallet.principal)} 元，赠送 {fenToYuan(wallet.gift)} 元。{to === 2 ? '冻结后不能消费或退款。' : to === 0 ? '注销后不能恢复。' : ''}
      </p>
      <Field label="原因" required autoFocus maxLength={200} value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} error={form.errors.reason} placeholder="如 乘客挂失" />
    </Modal>
  );
}

const BUCKET_OPTIONS = ADJUST_BUCKET.states.map((s) => ({ value: String(s.code), label: s.label }));

/** 人工调账 (maker): a request only; nothing moves until a second person approves it. */
export function AdjustDialog({ wallet, initial, onClose }: { wallet: Pick<Wallet, 'id' | 'riderPhone' | 'principal' | 'gift'>; initial?: { amount?: string; reason?: string }; onClose(): void }) {
  const [key] = useState(() => crypto.randomUUID());
  const form = useContractForm(adjust, {
    initial: { bucket: '1', amount: initial?.amount ?? '', reason: initial?.reason ?? '' },
    toInput: (v) => ({ body: { walletId: wallet.id, bucket: Number(v.bucket), delta: yuanToFenText(v.amount), reason: v.reason, idempotencyKey: key } }),
    success: (r) => `已提交人工调账 ${signed(r.adjustment.delta)} 元，待他人复核${r.replayed ? '（此前已提交）' : ''}`,
    onSaved: onClose,
  });
  const { values, errors, set } = form;
  const typed = values.amount.trim() && Number.isNaN(yuanToFenText(values.amount)) ? '请输入金额（元），如 5 或 -3.50' : undefined;
  return (
    <Modal open title={`人工调账 · ${wallet.riderPhone}`} onClose={onClose} dirty={form.dirty} onSubmit={() => void (typed ? undefined : form.submit())} footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel="提交复核" />}>
      <FormError>{errors['']}</FormError>
      <p className="mb-3 text-sm text-gray-700">
        当前本金 {fenToYuan(wallet.principal)} 元，赠送 {fenToYuan(wallet.gift)} 元。调账须另一位有复核权限的同事通过后才生效。
      </p>
      <SelectField label="调整账户" options={BUCKET_OPTIONS} value={values.bucket} onChange={(e) => set('bucket', e.target.value)} error={errors.bucket} />
      <Field label="金额（元）" required autoFocus inputMode="decimal" value={values.amount} onChange={(e) => set('amount', e.target.value)} error={typed ?? errors.delta} hint="正数补入，负数扣回" />
      <Field label="原因" required maxLength={200} value={values.reason} onChange={(e) => set('reason', e.target.value)} error={errors.reason} hint={`至少10个字，已输入 ${values.reason.trim().length} 字`} />
    </Modal>
  );
}

/**
 * 复核通过: the checker retypes the amount (the server compares it), so nobody approves a number they
 * did not read; Enter submits. 驳回 asks for a reason instead.
 */
export function CheckDialog({ adjustment, to, onClose, onDone }: { adjustment: Adjustment; to: 1 | 2; onClose(): void; onDone(): void }) {
  const form = useContractForm(adjustCheck, {
    initial: { amount: '', reason: '' },
    toInput: (v) => ({ body: { id: adjustment.id, fromStatus: 0, toStatus: to, ...(to === 1 ? { confirmDelta: yuanToFenText(v.amount) } : {}), ...(v.reason.trim() ? { reason: v.reason.trim() } : {}) } }),
    check: (v) => (to === 1 && Number.isNaN(yuanToFenText(v.amount)) ? { confirmDelta: '请再次输入调账金额（元）以确认' } : null),
    success: (a) => `${to === 1 ? '已复核通过' : '已驳回'}人工调账 ${signed(a.delta)} 元（${a.riderPhone}）`,
    onSaved: onDone,
  });
  const { values, errors, set } = form;
  return (
    <Modal
      open
      title={`${to === 1 ? '复核通过' : '驳回'}人工调账 · ${adjustment.riderPhone}`}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} submitLabel={to === 1 ? '通过' : '驳回'} />}
    >
      <FormError>{errors['']}</FormError>
      <div className="mb-4 rounded border border-amber-200 bg-amber-50 px-3 py-2">
        <DetailList
          termWidth="5rem"
          items={[
            { term: '调整', value: <strong className="tabular-nums">{`${ADJUST_BUCKET.label(adjustment.bucket)} ${signed(adjustment.delta)} 元`}</strong> },
            { term: '原因', value: adjustment.reason },
            { term: '申请人', value: adjustment.makerName ?? '—' },
            { term: '申请时间', value: formatDateTime(adjustment.createdDate) },
          ]}
        />
      </div>
      {to === 1 && <Field label="确认金额" required autoFocus inputMode="decimal" value={values.amount} onChange={(e) => set('amount', e.target.value)} error={errors.confirmDelta} hint="再输入一遍调整金额（元，含正负号）" />}
      <Field label={to === 1 ? '复核意见' : '驳回原因'} required={to === 2} autoFocus={to === 2} maxLength={200} value={values.reason} onChange={(e) => set('reason', e.target.value)} error={errors.reason} />
    </Modal>
  );
}

/** 钱包详情: the wallet from the server (balances, what the orders say it should hold) and its ledger, newest first. */
export function WalletDetailDialog({ id, onClose }: { id: number; onClose(): void }) {
  const msg = useApi(walletMsg, { query: { id } });
  const [page, setPage] = useState(0);
  const ledger = useApi(ledgerPage, { query: { walletId: id, page, size: 10 } });
  const w = msg.data?.id === id ? msg.data : undefined;
  const rows = ledger.data?.content ?? [];
  const pages = ledger.data?.totalPages ?? 0;
  const [exporting, setExporting] = useState(false);
  // A ref, not the state, guards: a double click or a repeating Enter lands before the next render.
  const exportingRef = useRef(false);
  // The whole ledger as a task of 下载中心 (by the wallet's id: no phone in the task's address).
  const exportLedger = () => {
    if (exportingRef.current) return;
    exportingRef.current = true;
    setExporting(true);
    startExportTask(ledgerExport, { walletId: String(id) })
      .catch(() => undefined)
      .finally(() => {
        exportingRef.current = false;
        setExporting(false);
      });
  };
  return (
    <Modal
      open
      title={w ? `钱包详情 · ${w.riderPhone}` : '钱包详情'}
      onClose={onClose}
      width="max-w-3xl"
      footer={
        <Button onClick={onClose} hotkey="Esc" autoFocus>
          关闭
        </Button>
      }
    >
      {!w ? (
        <p role="status" className="text-sm text-gray-600">
          {msg.error ? '加载失败' : '加载中…'}
        </p>
      ) : (
        <>
          <DetailList
            items={[
              { term: '手机号', value: <span className="tabular-nums">{w.riderPhone}</span> },
              { term: '区域', value: w.districtName ?? '—' },
              { term: '状态', value: <FlowBadge flow={WALLET_STATUS} code={w.status} /> },
              !!w.statusReason && { term: '状态原因', value: w.statusReason },
              { term: '本金', value: `${fenToYuan(w.principal)} 元` },
              { term: '赠送', value: `${fenToYuan(w.gift)} 元` },
              { term: '累计充值', value: `${fenToYuan(w.paid)} 元（退款 ${fenToYuan(w.refunded)} 元，消费 ${fenToYuan(w.consumed)} 元）` },
              w.pendingAdjustments > 0 && { term: '待复核调账', value: `${w.pendingAdjustments} 笔` },
            ]}
          />
          <section aria-label="钱包流水" className="mt-4">
            <div className="mb-2 flex items-center gap-2">
              <h3 className="text-sm font-medium text-gray-900">钱包流水（共 {ledger.data?.totalElements ?? 0} 条）</h3>
              <Button className="ml-auto h-7" disabled={exporting || !ledger.data?.totalElements} onClick={exportLedger}>
                {exporting ? '提交中…' : '导出流水'}
              </Button>
            </div>
            <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-[var(--theme)]" tabIndex={0} role="region" aria-label="钱包流水（可横向滚动）">
              <table className="w-full text-sm [&_td]:px-2 [&_td]:whitespace-nowrap [&_th]:px-2 [&_th]:whitespace-nowrap">
                <thead>
                  <tr className="border-b text-left text-gray-600">
                    <th className="py-1">时间</th>
                    <th>类型</th>
                    <th className="text-right">本金</th>
                    <th className="text-right">赠送</th>
                    <th className="text-right">本金余额</th>
                    <th className="text-right">赠送余额</th>
                    <th>操作人</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((l) => (
                    <tr key={l.id} className="border-b border-gray-100 tabular-nums">
                      <td className="py-1">{formatDateTime(l.createdDate)}</td>
                      <td>{LEDGER_TYPE.label(l.type)}</td>
                      <td className="text-right">{signed(l.principalDelta)}</td>
                      <td className="text-right">{signed(l.giftDelta)}</td>
                      <td className="text-right">{fenToYuan(l.principalAfter)}</td>
                      <td className="text-right">{fenToYuan(l.giftAfter)}</td>
                      <td>{l.byName ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {pages > 1 && (
              <div className="mt-2 flex items-center justify-end gap-2 text-sm">
                <Button className="h-7" disabled={page === 0} onClick={() => setPage(page - 1)}>
                  上一页
                </Button>
                <span>
                  {page + 1} / {pages}
                </span>
                <Button className="h-7" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                  下一页
                </Button>
              </div>
            )}
          </section>
        </>
      )}
    </Modal>
  );
}
