import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { type RechargePlan, planById, planSave } from '../../../../shared/api/wallet';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime, parseTypedDateTime } from '../../../../shared/domain/time';
import { pagePath } from '../../../../shared/modules';
import { EditPageButtons, LeaveEditDialog } from '../../../components/edit-page-footer';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useScreenTitle } from '../../../lib/screen-title';
import { useRecordById } from '../../../lib/use-record-by-id';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';
import { yuanToFenText } from '../paths';

const PLANS = pagePath('rechargeable', 'recharge-manage', { query: { tab: 'plan' } });
const toInt = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
const minute = (iso: string | null) => (iso ? formatDateTime(iso, 'YYYY-MM-DD HH:mm') : '');

/**
 * 新增储值 (AddRecharge, hidden; from 储值档位): one plan, new without `?id=`. Amounts in yuan; the
 * server refuses an amount outside the setting's bounds and a gift above half the amount.
 */
export function AddRechargePage() {
  const plan = useRecordById(planById);
  const loaded = plan.record;
  const title = plan.id ? '编辑储值档位' : '新增储值';
  useScreenTitle(title);
  // Not RecordByIdBody: an unreadable `?id=` opens a new plan here, and a failed read says only 不存在.
  return (
    <ScreenSection title={title}>
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        {plan.id && !loaded ? (
          <p role="status" className="text-sm text-gray-700">
            {plan.error ? '储值档位不存在' : '加载中…'}
          </p>
        ) : (
          <PlanForm key={loaded?.id ?? 'new'} plan={loaded ?? null} />
        )}
      </div>
    </ScreenSection>
  );
}

const valuesOf = (p: RechargePlan) => ({ name: p.name, amount: fenToYuan(p.amount), gift: fenToYuan(p.giftAmount), sort: String(p.sort), saleStart: minute(p.saleStart), saleEnd: minute(p.saleEnd) });

function PlanForm({ plan }: { plan: RechargePlan | null }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(planSave.permission) && (plan?.manageable ?? true);
  const [leaving, setLeaving] = useState(false);
  const [timeError, setTimeError] = useState<{ saleStart?: string; saleEnd?: string }>({});
  const form = useContractForm(planSave, {
    initial: plan ? valuesOf(plan) : { name: '', amount: '', gift: '0', sort: '0', saleStart: '', saleEnd: '' },
    toInput: (v) => ({
      body: {
        ...(plan ? { id: plan.id, rowVersion: plan.rowVersion } : {}),
        name: v.name,
        amount: yuanToFenText(v.amount),
        giftAmount: yuanToFenText(v.gift || '0'),
        sort: toInt(v.sort || '0'),
        saleStart: v.saleStart.trim() ? parseTypedDateTime(v.saleStart) : null,
        saleEnd: v.saleEnd.trim() ? parseTypedDateTime(v.saleEnd) : null,
      },
    }),
    errorFields: ['name', 'amount', 'giftAmount', 'sort', 'saleStart', 'saleEnd'],
    success: (saved) => `${plan ? '已保存' : '已新增'}储值档位「${saved.name}」`,
    onSaved: () => navigate(PLANS),
    stale: { version: plan?.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;
  const back = () => navigate(PLANS);
  const save = () => {
    if (!canSave || form.busy) return;
    const bad = (text: string) => (text.trim() && !parseTypedDateTime(text) ? '请输入时间，如 2026-12-01 08:00' : undefined);
    const t = { saleStart: bad(values.saleStart), saleEnd: bad(values.saleEnd) };
    setTimeError(t);
    if (t.saleStart || t.saleEnd) return;
    void form.submit();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      if (form.dirty && canSave) setLeaving(true);
      else back();
      return;
    }
    saveKey(save)(e);
  };
  const yuanError = (text: string, serverError: string | undefined) => (text.trim() && Number.isNaN(yuanToFenText(text)) ? '请输入金额（元），最多两位小数' : serverError);
  return (
    <>
      <form
        noValidate
        aria-label="储值档位"
        onKeyDown={onKeyDown}
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          save();
        }}
      >
        <FormError>{errors['']}</FormError>
        {!canSave && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：全市档位只有超级管理员可以修改。</p>}
        <fieldset disabled={form.busy || !canSave} className="contents">
          <Field label="档位名称" required autoFocus maxLength={20} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} hint="如 充100送5元" />
          <Field label="充值金额（元）" labelWidth={110} required inputMode="decimal" value={values.amount} onChange={(e) => set('amount', e.target.value)} error={yuanError(values.amount, errors.amount)} hint="在储值设置的单笔上下限之内" />
          <Field label="赠送金额（元）" labelWidth={110} inputMode="decimal" value={values.gift} onChange={(e) => set('gift', e.target.value)} error={yuanError(values.gift, errors.giftAmount)} hint="不超过充值金额的50%；赠送不可提现" />
          <Field label="排序" inputMode="numeric" maxLength={4} value={values.sort} onChange={(e) => set('sort', e.target.value)} error={errors.sort} />
          <Field label="开售时间" placeholder="2026-12-01 08:00（可空）" value={values.saleStart} onChange={(e) => set('saleStart', e.target.value)} error={timeError.saleStart ?? errors.saleStart} />
          <Field label="停售时间" placeholder="可空：长期有效" value={values.saleEnd} onChange={(e) => set('saleEnd', e.target.value)} error={timeError.saleEnd ?? errors.saleEnd} />
        </fieldset>
        <EditPageButtons readOnly={!canSave} busy={form.busy} onBack={back} />
      </form>
      <LeaveEditDialog open={leaving} listName="储值档位" onLeave={back} onClose={() => setLeaving(false)} />
    </>
  );
}
