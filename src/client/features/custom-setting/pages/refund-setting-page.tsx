import { type FormEvent, useState } from 'react';
import { CUSTOM_SETTING_EDITOR, REFUND_RULE_STATUS, RULE_REMARK_MAX, type RefundRule, refundRuleList, refundRulePreview, refundRulePublish, refundRuleSave, refundRuleWithdraw } from '../../../../shared/api/custom-setting';
import { DEFAULT_LADDER, type LadderRow, ladderProblem, refundQuote } from '../../../../shared/custom/refund-ladder';
import { yuanToFen } from '../../../../shared/domain/money';
import { formatDateTime, parseTypedDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { Modal } from '../../../components/modal';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useCurrentUser, useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useRevalidate } from '../../../lib/revalidate';
import { useScreenAction } from '../../../lib/screen-action';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { saveKey } from '../../../lib/use-save-key';
import { LadderGrid, type LadderCells, cellsOf, rowsOfCells } from '../components/ladder-grid';
import { quoteLine } from '../quote-line';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

interface Editing {
  id?: number;
  rowVersion?: number;
  cells: LadderCells[];
  remark: string;
}

const editingOf = (r: RefundRule | null): Editing => (r ? { id: r.id, rowVersion: r.rowVersion, cells: r.rows.map(cellsOf), remark: r.remark } : { cells: DEFAULT_LADDER.map(cellsOf), remark: '' });

/**
 * 退款设置 (RefundSetting): the district's ladder versions (草稿, 待生效, 生效中, 已失效) with the one being
 * edited as a grid and its preview line, 发布 now or at a time, 撤回 a scheduled one, and 退款试算 against
 * any version. Orders keep the version they were sold under, so a new ladder never changes a sold ticket.
 */
export function RefundSettingPage() {
  const noArea = useNoAreaChosen();
  // Asked only once the account is known: an admin on 全部区域 has no district to ask about.
  const known = !!useCurrentUser().data;
  const list = useApi(refundRuleList, known && !noArea ? {} : null);
  return (
    <ScreenSection title="退款设置">
      {noArea ? (
        <p className="rounded border border-gray-200 bg-white p-4 text-sm text-gray-700">退款规则按区域设置：请先在顶部选择区域。</p>
      ) : !list.data ? (
        <p role="status" className="rounded border border-gray-200 bg-white p-4 text-sm text-gray-700">
          {list.error ? `加载失败：${message(list.error)}` : '加载中…'}
        </p>
      ) : (
        <RefundSetting rules={list.data.content} total={list.data.total} />
      )}
    </ScreenSection>
  );
}

function RefundSetting({ rules, total }: { rules: RefundRule[]; total: { draft: number; pending: number; inForce: number; expired: number } }) {
  const canEdit = useAllowed(CUSTOM_SETTING_EDITOR);
  const revalidate = useRevalidate();
  const inForce = rules.find((r) => r.status === 2) ?? null;
  const firstDraft = rules.find((r) => r.status === 0) ?? null;
  // The editor starts on the newest draft, else a new one from the ladder in force.
  const [editing, setEditing] = useState<Editing>(() => (firstDraft ? editingOf(firstDraft) : { ...editingOf(inForce), id: undefined, rowVersion: undefined, remark: '' }));
  const [editorKey, setEditorKey] = useState(0);
  const [publishing, setPublishing] = useState<RefundRule | null>(null);
  const [withdrawing, setWithdrawing] = useState<RefundRule | null>(null);
  const [busy, setBusy] = useState(false);

  const open = (next: Editing) => {
    setEditing(next);
    setEditorKey((k) => k + 1);
  };

  const withdraw = async () => {
    if (!withdrawing) return;
    setBusy(true);
    try {
      const r = await api.call(refundRuleWithdraw, { body: { id: withdrawing.id, rowVersion: withdrawing.rowVersion } }, { silent: true });
      toast.success(`退款规则 #${r.id} 已撤回为草稿`);
      void revalidate(refundRuleWithdraw);
      setWithdrawing(null);
      open(editingOf(r));
    } catch (err) {
      toast.error(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="min-w-0 rounded border border-gray-200 bg-white p-4">
        <h3 className="mb-1 text-base font-medium text-gray-800">规则版本</h3>
        <p className="mb-2 text-xs text-gray-600" aria-label="版本统计">
          草稿 {total.draft} · 待生效 {total.pending} · 生效中 {total.inForce} · 已失效 {total.expired}
        </p>
        {rules.length === 0 ? (
          <p className="text-sm text-gray-700">本区域还没有退款规则，当前按默认阶梯退款。</p>
        ) : (
          <div className="overflow-x-auto">
            <table aria-label="退款规则版本" className="w-full min-w-[520px] text-sm">
              <thead className="whitespace-nowrap text-left text-gray-600">
                <tr>
                  <th className="px-2 py-1 font-normal">版本</th>
                  <th className="px-2 py-1 font-normal">状态</th>
                  <th className="px-2 py-1 font-normal">生效时间</th>
                  <th className="px-2 py-1 font-normal">备注</th>
                  <th className="px-2 py-1 font-normal">操作</th>
                </tr>
              </thead>
              <tbody>
                {rules.map((r) => (
                  <tr key={r.id} className={`border-t border-gray-100 ${editing.id === r.id ? 'bg-[var(--theme)]/5' : ''}`}>
                    <td className="px-2 py-1">#{r.id}</td>
                    <td className="whitespace-nowrap px-2 py-1">
                      <FlowBadge flow={REFUND_RULE_STATUS} code={r.status} />
                    </td>
                    <td className="whitespace-nowrap px-2 py-1">{r.effectiveAt ? formatDateTime(r.effectiveAt, 'YYYY-MM-DD HH:mm') : '—'}</td>
                    <td className="max-w-32 truncate px-2 py-1" title={r.remark}>
                      {r.remark || '—'}
                    </td>
                    <td className="whitespace-nowrap px-2 py-1">
                      {r.status === 0 && canEdit && (
                        <>
                          <Button variant="text" onClick={() => open(editingOf(r))} aria-label={`编辑 #${r.id}`}>
                            编辑
                          </Button>
                          <Button variant="text" onClick={() => setPublishing(r)} aria-label={`发布 #${r.id}`}>
                            发布
                          </Button>
                        </>
                      )}
                      {r.status === 1 && canEdit && (
                        <Button variant="text" onClick={() => setWithdrawing(r)} aria-label={`撤回 #${r.id}`}>
                          撤回
                        </Button>
                      )}
                      {r.status !== 0 && (
                        <Button variant="text" onClick={() => open(editingOf(r))} aria-label={`查看 #${r.id}`}>
                          查看
                        </Button>
                      )}
                      {r.status !== 0 && canEdit && (
                        <Button variant="text" onClick={() => open({ ...editingOf(r), id: undefined, rowVersion: undefined, remark: `复制自 #${r.id}` })} aria-label={`复制为草稿 #${r.id}`}>
                          复制为草稿
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Calculator rules={rules} />
      </div>
      <LadderEditor key={editorKey} editing={editing} canEdit={canEdit} onSaved={(r) => setEditing(editingOf(r))} onNew={() => open({ ...editingOf(inForce), id: undefined, rowVersion: undefined, remark: '' })} onPublish={setPublishing} rules={rules} />
      {publishing && <PublishDialog rule={publishing} onClose={() => setPublishing(null)} />}
      <ConfirmDialog open={withdrawing !== null} title="撤回退款规则" confirmLabel="撤回" busy={busy} onConfirm={() => void withdraw()} onClose={() => setWithdrawing(null)}>
        撤回待生效的退款规则 #{withdrawing?.id}（原定 {withdrawing?.effectiveAt ? formatDateTime(withdrawing.effectiveAt, 'YYYY-MM-DD HH:mm') : ''} 生效）？撤回后成为草稿，可修改后重新发布。
      </ConfirmDialog>
    </div>
  );
}

const yuan = (fenAmount: number) => (fenAmount / 100).toFixed(2).replace(/\.00$/, '');

/**
 * The ladder being edited, as a grid, with its live preview ("50元·距发车90分钟 → 退40元") recomputed
 * on every key by the shared `refundQuote`. Ctrl+S saves the draft.
 */
function LadderEditor({ editing, canEdit, onSaved, onNew, onPublish, rules }: { editing: Editing; canEdit: boolean; onSaved(r: RefundRule): void; onNew(): void; onPublish(r: RefundRule): void; rules: RefundRule[] }) {
  const revalidate = useRevalidate();
  const [cells, setCells] = useState(editing.cells);
  const [remark, setRemark] = useState(editing.remark);
  const [amount, setAmount] = useState('50');
  const [minutes, setMinutes] = useState('90');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const parsed = rowsOfCells(cells);
  const problem = 'problem' in parsed ? parsed.problem : ladderProblem(parsed.rows);
  const amountFen = yuanToFen(amount);
  const mins = /^-?\d{1,6}$/.test(minutes.trim()) ? Number(minutes.trim()) : null;
  let preview: string;
  if (problem) preview = problem;
  else if (amountFen === null || mins === null) preview = '请输入试算金额和距发车分钟';
  else {
    const q = refundQuote((parsed as { rows: LadderRow[] }).rows, amountFen, mins);
    preview = quoteLine(yuan(amountFen), mins, yuan(q.refund), q.refundable, null);
  }
  const draft = editing.id !== undefined ? rules.find((r) => r.id === editing.id) : undefined;
  // A published version never changes (orders name it): shown read-only, to copy into a new draft.
  const locked = !canEdit || (draft !== undefined && draft.status !== 0);

  const save = async () => {
    if (locked || busy) return;
    if ('problem' in parsed) return setError(parsed.problem);
    if (problem) return setError(problem);
    setBusy(true);
    setError('');
    try {
      const r = await api.call(refundRuleSave, { body: { ...(editing.id !== undefined ? { id: editing.id, rowVersion: editing.rowVersion } : {}), rows: parsed.rows, remark } }, { silent: true });
      toast.success(`已保存退款规则草稿 #${r.id}`);
      void revalidate(refundRuleSave);
      onSaved(r);
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save();
  };
  const title = editing.id === undefined ? '新草稿' : draft && draft.status !== 0 ? `#${editing.id} ${REFUND_RULE_STATUS.label(draft.status)}（只读）` : `草稿 #${editing.id}`;
  return (
    <form noValidate aria-label="退款阶梯编辑" onSubmit={submit} onKeyDown={saveKey(() => void save())} className="min-w-0 rounded border border-gray-200 bg-white p-4">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-medium text-gray-800">退款阶梯 · {title}</h3>
        {canEdit && (
          <Button variant="text" onClick={onNew}>
            从生效规则新建草稿
          </Button>
        )}
      </div>
      <FormError>{error}</FormError>
      <LadderGrid
        cells={cells}
        onChange={(next) => {
          setCells(next);
          setError('');
        }}
        readOnly={locked}
      />
      <div className="mt-3 flex flex-wrap items-end gap-2 rounded bg-gray-50 p-2 text-sm">
        <label className="flex items-center gap-1">
          试算
          <input aria-label="预览金额（元）" inputMode="decimal" className="w-20 rounded border border-gray-300 px-2 py-1" value={amount} onChange={(e) => setAmount(e.target.value)} />元
        </label>
        <label className="flex items-center gap-1">
          距发车
          <input aria-label="预览距发车分钟" inputMode="numeric" className="w-20 rounded border border-gray-300 px-2 py-1" value={minutes} onChange={(e) => setMinutes(e.target.value)} />
          分钟
        </label>
        <output aria-label="阶梯预览" aria-live="polite" className={`ml-auto font-medium ${problem ? 'text-red-700' : 'text-gray-800'}`}>
          {preview}
        </output>
      </div>
      <Field label="备注" labelWidth={60} className="mt-3" maxLength={RULE_REMARK_MAX} readOnly={locked} value={remark} onChange={(e) => setRemark(e.target.value)} />
      <p className="mb-3 text-xs text-gray-500">Tab 在单元格间移动，Alt+↓ 添加一行，Alt+Delete 删除当前行，Ctrl+S 保存草稿。区间须从0分钟起连续覆盖、不重叠，最后一行截止留空。</p>
      {!locked && (
        <div className="flex justify-end gap-2">
          {draft && draft.status === 0 && (
            <Button onClick={() => onPublish(draft)} disabled={busy}>
              发布…
            </Button>
          )}
          <Button type="submit" variant="primary" hotkey="Ctrl+S" disabled={busy}>
            {busy ? '保存中…' : '保存草稿'}
          </Button>
        </div>
      )}
    </form>
  );
}

/** 发布: empty time → now (the old one 已失效 at once); a later time → 待生效 until the job reaches it. */
function PublishDialog({ rule, onClose }: { rule: RefundRule; onClose(): void }) {
  const revalidate = useRevalidate();
  const [at, setAt] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const publish = async () => {
    const iso = at.trim() ? parseTypedDateTime(at) : null;
    if (at.trim() && !iso) return setError('生效时间格式应为 2026-12-31 08:00');
    setBusy(true);
    setError('');
    try {
      const r = await api.call(refundRulePublish, { body: { id: rule.id, rowVersion: rule.rowVersion, ...(iso ? { effectiveAt: iso } : {}) } }, { silent: true });
      toast.success(r.status === 2 ? `退款规则 #${r.id} 已生效` : `退款规则 #${r.id} 将于 ${formatDateTime(r.effectiveAt, 'YYYY-MM-DD HH:mm')} 生效`);
      void revalidate(refundRulePublish);
      onClose();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`发布退款规则 #${rule.id}`}
      onClose={onClose}
      onSubmit={() => void publish()}
      footer={
        <>
          <Button onClick={onClose} hotkey="Esc">
            取消
          </Button>
          <Button type="submit" variant="primary" hotkey="Enter" disabled={busy}>
            {busy ? '发布中…' : at.trim() ? '定时发布' : '立即生效'}
          </Button>
        </>
      }
    >
      <FormError>{error}</FormError>
      <Field label="生效时间" labelWidth={80} autoFocus placeholder="留空立即生效，如 2026-12-31 08:00" value={at} onChange={(e) => setAt(e.target.value)} hint="立即生效时当前规则同时失效；已售车票仍按购票时的规则退款。" />
    </Modal>
  );
}

/**
 * 退款试算: the server's answer for a version (生效中 unless another is chosen), an amount and the
 * minutes before departure. The palette's 退款试算 fills it and runs it.
 */
function Calculator({ rules }: { rules: RefundRule[] }) {
  const [ruleId, setRuleId] = useState('');
  const [amount, setAmount] = useState('');
  const [minutes, setMinutes] = useState('');
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState('');
  const run = async (a = amount, m = minutes) => {
    const fenAmount = yuanToFen(a);
    if (fenAmount === null) return setError('金额应为元，最多两位小数');
    if (!/^-?\d{1,6}$/.test(m.trim())) return setError('距发车分钟应为整数');
    setError('');
    try {
      const q = await api.call(refundRulePreview, { query: { ...(ruleId ? { ruleId: Number(ruleId) } : {}), amount: fenAmount, minutesBefore: Number(m.trim()) } }, { silent: true });
      setAnswer(`${quoteLine(yuan(q.amount), q.minutesBefore, yuan(q.refund), q.refundable, q.fee ? yuan(q.fee) : null)}（${q.ruleId ? `规则 #${q.ruleId}` : '默认阶梯'}）`);
    } catch (err) {
      setError(message(err));
    }
  };
  useScreenAction(
    ['customSetting', 'refund-setting', 'preview'],
    (args) => {
      const a = args.get('amount') ?? '';
      const m = args.get('minutes') ?? '';
      setAmount(a);
      setMinutes(m);
      void run(a, m);
    },
    ['amount', 'minutes'],
  );
  const options = [{ value: '', label: '生效中的规则' }, ...rules.map((r) => ({ value: String(r.id), label: `#${r.id} ${REFUND_RULE_STATUS.label(r.status)}` }))];
  return (
    <form
      noValidate
      aria-label="退款试算"
      className="mt-4 border-t border-gray-100 pt-3"
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      <h3 className="mb-2 text-base font-medium text-gray-800">退款试算</h3>
      <FormError>{error}</FormError>
      <SelectField label="规则" labelWidth={90} options={options} value={ruleId} onChange={(e) => setRuleId(e.target.value)} />
      <Field label="金额（元）" labelWidth={90} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      <Field label="距发车分钟" labelWidth={90} inputMode="numeric" value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      <div className="flex flex-wrap items-center justify-end gap-3">
        {answer && (
          <output aria-label="试算结果" className="mr-auto text-sm font-medium text-gray-800">
            {answer}
          </output>
        )}
        <Button type="submit" hotkey="Enter">
          试算
        </Button>
      </div>
    </form>
  );
}
