import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { PACKAGE_DESCRIPTION_MAX, PACKAGE_NAME_MAX, type Package, packageById, packageSave } from '../../../../shared/api/package-pay';
import { fenToYuan } from '../../../../shared/domain/money';
import { addDays, shanghaiDate, shanghaiMidnight } from '../../../../shared/domain/time';
import { EditPageButtons, LeaveEditDialog } from '../../../components/edit-page-footer';
import { Field } from '../../../components/field';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { RecordByIdBody } from '../../../components/record-by-id-body';
import { ScreenSection } from '../../../components/screen-section';
import { StaleNote } from '../../../components/stale-note';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenTitle } from '../../../lib/screen-title';
import { useRecordById } from '../../../lib/use-record-by-id';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';
import { toFen } from '../components/refund-dialog';
import { managePath } from '../paths';

const toInt = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text.trim());
/** The sale window is whole Shanghai days: from the first day's start to the last day's end. */
const dayStart = (d: string) => (isDay(d) ? shanghaiMidnight(d.trim()).toISOString() : d);
const dayEnd = (d: string) => (isDay(d) ? shanghaiMidnight(addDays(d.trim(), 1)).toISOString() : d);

/**
 * 新增套餐 (AddPackage, hidden; also 编辑 with `?id=`): a page, so the address can be shared and the
 * list keeps its place. Money is typed in yuan and sent in fen; Ctrl+S or Enter saves, Esc returns.
 */
export function PackageEditPage() {
  const loaded = useRecordById(packageById);
  const pkg = loaded.record;
  const title = loaded.id ? '编辑套餐' : '新增套餐';
  useScreenTitle(title);
  return (
    <ScreenSection title={title}>
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        <h3 className="mb-4 text-base font-medium text-gray-900">{pkg ? `${title} · ${pkg.name}` : title}</h3>
        <RecordByIdBody loaded={loaded} noun="套餐">
          <PackageForm key={pkg?.id ?? 'new'} pkg={pkg ?? null} />
        </RecordByIdBody>
      </div>
    </ScreenSection>
  );
}

const valuesOf = (p: Package) => ({
  name: p.name,
  price: fenToYuan(p.price),
  originalPrice: fenToYuan(p.originalPrice),
  rides: String(p.rides),
  validDays: String(p.validDays),
  lineScope: (p.lineScope ?? []).join(' '),
  dailyLimit: String(p.dailyLimit),
  perUserLimit: String(p.perUserLimit),
  saleStart: shanghaiDate(p.saleStart),
  saleEnd: shanghaiDate(new Date(Date.parse(p.saleEnd) - 1)),
  stock: p.stock === null ? '' : String(p.stock),
  sort: String(p.sort),
  description: p.description,
});

function PackageForm({ pkg }: { pkg: Package | null }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(packageSave.permission);
  const noArea = useNoAreaChosen();
  const [moneyErrors, setMoneyErrors] = useState<Record<string, string | null>>({});
  const [leaving, setLeaving] = useState(false);
  const today = shanghaiDate(new Date());
  const form = useContractForm(packageSave, {
    initial: pkg
      ? valuesOf(pkg)
      : { name: '', price: '', originalPrice: '', rides: '22', validDays: '30', lineScope: '', dailyLimit: '0', perUserLimit: '0', saleStart: today, saleEnd: addDays(today, 365), stock: '', sort: '0', description: '' },
    toInput: (v) => ({
      body: {
        ...(pkg ? { id: pkg.id } : {}),
        name: v.name,
        price: toFen(v.price),
        originalPrice: toFen(v.originalPrice),
        rides: toInt(v.rides),
        validDays: toInt(v.validDays),
        lineScope: v.lineScope.split(/[\s,，、]+/).filter(Boolean),
        dailyLimit: toInt(v.dailyLimit || '0'),
        perUserLimit: toInt(v.perUserLimit || '0'),
        saleStart: dayStart(v.saleStart),
        saleEnd: dayEnd(v.saleEnd),
        stock: v.stock.trim() === '' ? null : toInt(v.stock),
        sort: toInt(v.sort || '0'),
        description: v.description,
      },
    }),
    success: (saved) => `${pkg ? '已保存' : '已新增'}套餐「${saved.name}」${pkg ? '' : '（草稿，请在套餐管理中上架）'}`,
    onSaved: () => navigate(managePath()),
    stale: { version: pkg?.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;
  const onSale = pkg?.status === 1;
  const readOnly = !canSave;
  const blocked = readOnly || (!pkg && noArea);
  const back = () => navigate(managePath());
  const escape = () => (form.dirty && !readOnly ? setLeaving(true) : back());
  const save = () => {
    if (blocked || form.busy) return;
    // The contract counts fen; a malformed amount is told in yuan (the rest by the contract's words).
    const money = (k: 'price' | 'originalPrice', label: string) => (values[k].trim() === '' ? `请输入${label}` : Number.isNaN(toFen(values[k])) ? '请输入金额（元），如 30.00，最多两位小数' : null);
    setMoneyErrors({ price: money('price', '售价'), originalPrice: money('originalPrice', '原价') });
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
  const field = (k: keyof typeof values) => ({ value: values[k], onChange: (e: { target: { value: string } }) => (set(k, e.target.value), setMoneyErrors((m) => ({ ...m, [k]: null }))), error: moneyErrors[k] ?? errors[k], note: <StaleNote form={form} field={k} /> });
  return (
    <>
      <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label="套餐">
        <FormError>{errors['']}</FormError>
        {!pkg && noArea && canSave && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：新的套餐属于该区域。</p>}
        {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有编辑套餐的权限。</p>}
        {onSale && <p className="mb-4 rounded bg-amber-50 px-3 py-2 text-sm text-amber-800">在售套餐不能修改价格、次数和有效期，请先下架。</p>}
        <fieldset disabled={form.busy} className="contents">
          <Field labelWidth={112} label="套餐名称" required autoFocus={!readOnly} readOnly={readOnly} maxLength={PACKAGE_NAME_MAX} hint={`如 月度通勤22次，最多${PACKAGE_NAME_MAX}字`} {...field('name')} />
          <Field labelWidth={112} label="售价（元）" required readOnly={readOnly || onSale} inputMode="decimal" placeholder="30.00" {...field('price')} />
          <Field labelWidth={112} label="原价（元）" required readOnly={readOnly} inputMode="decimal" placeholder="44.00" hint="次数 × 单程票价；售价 ÷ 原价即想给的折扣" {...field('originalPrice')} />
          <Field labelWidth={112} label="次数" required readOnly={readOnly || onSale} inputMode="numeric" maxLength={3} hint="1–999" {...field('rides')} />
          <Field labelWidth={112} label="有效天数" required readOnly={readOnly || onSale} inputMode="numeric" maxLength={3} hint="支付当天算第1天，1–366" {...field('validDays')} />
          <Field labelWidth={112} label="适用线路" readOnly={readOnly} placeholder="留空为全部线路；多条用空格分隔，如 01 02 N1" {...field('lineScope')} />
          <Field labelWidth={112} label="每日限乘次数" readOnly={readOnly} inputMode="numeric" maxLength={2} hint="0 为不限" {...field('dailyLimit')} />
          <Field labelWidth={112} label="每人限购" readOnly={readOnly} inputMode="numeric" maxLength={2} hint="同时持有待支付或生效中的份数，0 为不限" {...field('perUserLimit')} />
          <Field labelWidth={112} label="销售开始日期" required type="date" readOnly={readOnly} {...field('saleStart')} />
          <Field labelWidth={112} label="销售结束日期" required type="date" readOnly={readOnly} hint="含当天" {...field('saleEnd')} />
          <Field labelWidth={112} label="库存" readOnly={readOnly} inputMode="numeric" maxLength={7} hint="剩余可售份数，留空为不限量" {...field('stock')} />
          <Field labelWidth={112} label="排序" readOnly={readOnly} inputMode="numeric" maxLength={4} hint="小的在前" {...field('sort')} />
          <TextAreaField labelWidth={112} label="套餐说明" readOnly={readOnly} rows={3} maxLength={PACKAGE_DESCRIPTION_MAX} value={values.description} onChange={(e) => set('description', e.target.value)} error={errors.description} hint={`${values.description.length} / ${PACKAGE_DESCRIPTION_MAX} 字`} />
        </fieldset>
        <EditPageButtons readOnly={readOnly} busy={form.busy} blocked={blocked} onBack={back} />
      </form>
      <LeaveEditDialog open={leaving} listName="套餐管理" onLeave={back} onClose={() => setLeaving(false)} />
    </>
  );
}
