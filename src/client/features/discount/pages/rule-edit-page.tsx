import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { discount } from '../../../../shared/api';
import type { DiscountProduct } from '../../../../shared/api/discount';
import { fenToYuan } from '../../../../shared/domain/money';
import { pagePath } from '../../../../shared/modules';
import { EditPageButtons, LeaveEditDialog } from '../../../components/edit-page-footer';
import { Field } from '../../../components/field';
import { FormError, SelectField, TextAreaField } from '../../../components/form-controls';
import { useScreenTitle } from '../../../lib/screen-title';
import { RecordByIdBody } from '../../../components/record-by-id-body';
import { ScreenSection } from '../../../components/screen-section';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useRecordById } from '../../../lib/use-record-by-id';
import { useContractForm } from '../../../lib/use-contract-form';
import { StaleNote } from '../../../components/stale-note';
import { saveKey } from '../../../lib/use-save-key';
import { TICKET_OPTIONS } from '../components/discount-filters';
import { RecordChangedNotice } from '../../../components/record-changed-notice';

/** Yuan as typed ("12.5" or "12.50") to fen; anything else is NaN, told in yuan below (not the contract's 分). */
const toFen = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : Number.NaN);
const toInt = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/**
 * 规则编辑 (RuleEdit, reached from 规则设置): one discount-card product, new without `?id=`. A page,
 * not a dialog, so the agent keeps the list's place and the address can be shared. Enter or Ctrl+S
 * saves, Esc or 取消 returns to 规则设置; without the permission everything is read-only.
 */
export function RuleEditPage() {
  const product = useRecordById(discount.productById);
  const title = product.id ? '编辑优惠卡规则' : '新增优惠卡规则';
  // The menu item is 规则编辑; opened without a record it adds one, and the breadcrumb says so.
  useScreenTitle(product.raw ? '规则编辑' : '新增规则');
  const loaded = product.record;
  return (
    <ScreenSection title={title}>
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        <h3 className="mb-4 text-base font-medium text-gray-900">{loaded ? `${title} · ${loaded.name}` : title}</h3>
        <RecordByIdBody loaded={product} noun="优惠卡">
          {/* A fresh form per product: its first values are the loaded ones. */}
          <RuleForm key={loaded?.id ?? 'new'} product={loaded ?? null} />
        </RecordByIdBody>
      </div>
    </ScreenSection>
  );
}

const valuesOf = (p: DiscountProduct) => ({ name: p.name, ticketType: String(p.ticketType), price: fenToYuan(p.price), validDays: String(p.validDays), description: p.description ?? '' });

function RuleForm({ product }: { product: DiscountProduct | null }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(discount.productSave.permission);
  const noArea = useNoAreaChosen();
  const [priceError, setPriceError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const form = useContractForm(discount.productSave, {
    initial: product ? valuesOf(product) : { name: '', ticketType: '2', price: '', validDays: '30', description: '' },
    toInput: (v) => ({
      body: {
        ...(product ? { id: product.id } : {}),
        name: v.name,
        ticketType: Number(v.ticketType),
        price: toFen(v.price),
        validDays: toInt(v.validDays),
        ...(v.description.trim() ? { description: v.description.trim() } : {}),
      },
    }),
    success: (saved) => `${product ? '已保存' : '已新增'}优惠卡「${saved.name}」${product ? '' : '（未上架，请在规则设置中上架）'}`,
    onSaved: () => navigate(pagePath('specialCode', 'rule-setting')),
    // Saved from the version it was opened on; another's save meanwhile shows beside the typed text.
    stale: { version: product?.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;
  const readOnly = !canSave;
  const blocked = readOnly || (!product && noArea);

  const back = () => navigate(pagePath('specialCode', 'rule-setting'));
  // As a dialog's Esc does: typed changes are not thrown away without asking (取消 is explicit).
  const escape = () => (form.dirty && !readOnly ? setLeaving(true) : back());
  const save = () => {
    if (blocked || form.busy) return;
    // The contract counts fen; what the agent typed is yuan, so a malformed amount is told in yuan
    // (the other fields still get the contract's own messages from the same submit).
    setPriceError(values.price.trim() === '' ? '请输入价格' : Number.isNaN(toFen(values.price)) ? '请输入金额（元），如 12.50，最多两位小数' : null);
    void form.submit();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      escape();
      return;
    }
    saveKey(save)(e);
  };

  return (
    <>
      <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label="优惠卡规则">
        <RecordChangedNotice kind="discount-card" id={product?.id} />
        <FormError>{errors['']}</FormError>
        {!product && noArea && canSave && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：新的优惠卡属于该区域。</p>}
        {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：只有区域管理员可以修改优惠卡规则。</p>}
        <fieldset disabled={form.busy} className="contents">
          <Field label="名称" required autoFocus={!readOnly} readOnly={readOnly} maxLength={40} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} hint="如 通勤月票" note={<StaleNote form={form} field="name" />} />
          <SelectField label="票种" required disabled={readOnly} options={TICKET_OPTIONS} value={values.ticketType} onChange={(e) => set('ticketType', e.target.value)} error={errors.ticketType} note={<StaleNote form={form} field="ticketType" show={(v) => TICKET_OPTIONS.find((o) => o.value === v)?.label ?? v} />} />
          <Field
            label="价格（元）"
            required
            readOnly={readOnly}
            inputMode="decimal"
            placeholder="12.50"
            value={values.price}
            onChange={(e) => (set('price', e.target.value), setPriceError(null))}
            error={priceError ?? errors.price}
            hint="以元为单位，最多两位小数"
            note={<StaleNote form={form} field="price" />}
          />
          <Field label="有效天数" required readOnly={readOnly} inputMode="numeric" maxLength={4} value={values.validDays} onChange={(e) => set('validDays', e.target.value)} error={errors.validDays} hint="购买后多少天内有效，1–3660" note={<StaleNote form={form} field="validDays" />} />
          <TextAreaField label="说明" readOnly={readOnly} rows={3} maxLength={200} value={values.description} onChange={(e) => set('description', e.target.value)} error={errors.description} hint={`${values.description.length} / 200 字`} note={<StaleNote form={form} field="description" />} />
        </fieldset>
        <EditPageButtons readOnly={readOnly} busy={form.busy} blocked={blocked} onBack={back} />
      </form>
      <LeaveEditDialog open={leaving} listName="规则设置" onLeave={back} onClose={() => setLeaving(false)} />
    </>
  );
}
