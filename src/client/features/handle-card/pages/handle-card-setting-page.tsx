import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { APPLY_CATEGORIES, DELIVERY_MODES, type HandleSetting, MATERIALS, type MaterialKey, applyCategoryLabel, settingList, settingSave } from '../../../../shared/api/handle-card';
import { fenToYuan, yuanToFen } from '../../../../shared/domain/money';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { CheckboxField, FormError } from '../../../components/form-controls';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';
import { ruleEditPath } from '../apply-paths';

const toInt = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
const valuesOf = (s: HandleSetting) => ({
  open: s.open,
  ageMin: String(s.ageMin),
  ageMax: String(s.ageMax),
  fee: fenToYuan(s.feeFen),
  pickup: s.deliveryModes.includes(1),
  post: s.deliveryModes.includes(2),
  materials: s.materials.join(','),
  onePerId: s.onePerId,
  dailyQuota: String(s.dailyQuota),
});

/**
 * 办卡设置 (HandleCardSetting): per card type and district, whether it is open online, the age range,
 * the fee, how the card is delivered, the materials asked for, one card per id and the daily quota.
 * Ctrl+S or Enter saves; 办卡须知 is edited on 办卡规则编辑.
 */
export function HandleCardSettingPage() {
  const all = useApi(settingList, { query: {} });
  const rows = all.data ?? [];
  const districts = [...new Map(rows.map((r) => [r.districtId, r.districtName ?? String(r.districtId)])).entries()];
  const [district, setDistrict] = useState<number | null>(null);
  const [category, setCategory] = useState<number>(APPLY_CATEGORIES[0]);
  const here = district ?? districts[0]?.[0] ?? null;
  const current = rows.find((r) => r.districtId === here && r.cardCategory === category);
  return (
    <ScreenSection title="办卡设置">
      <div className="mb-3 flex flex-wrap items-center gap-2">
        {districts.length > 1 && (
          <label className="flex items-center gap-1 text-sm">
            区域
            <select aria-label="区域" className="h-8 rounded border border-gray-300 px-1" value={here ?? ''} onChange={(e) => setDistrict(Number(e.target.value))}>
              {districts.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
        <div role="tablist" aria-label="卡类型" className="flex gap-2">
          {APPLY_CATEGORIES.map((c) => {
            const s = rows.find((r) => r.districtId === here && r.cardCategory === c);
            return (
              <Button key={c} role="tab" aria-selected={c === category} variant={c === category ? 'primary' : 'default'} onClick={() => setCategory(c)}>
                {applyCategoryLabel(c)}
                {s ? (s.open ? '' : '（未开放）') : '（未设置）'}
              </Button>
            );
          })}
        </div>
      </div>
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        {all.isLoading && <p role="status">加载中…</p>}
        {!all.isLoading && !current && <p className="text-sm text-gray-600">该区域尚无{applyCategoryLabel(category)}的办卡设置。</p>}
        {current && <SettingForm key={`${current.id}:${current.updatedDate}`} setting={current} />}
      </div>
    </ScreenSection>
  );
}

function SettingForm({ setting }: { setting: HandleSetting }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(settingSave.permission);
  const [feeError, setFeeError] = useState<string | null>(null);
  const form = useContractForm(settingSave, {
    initial: valuesOf(setting),
    toInput: (v) => ({
      body: {
        id: setting.id,
        cardCategory: setting.cardCategory,
        open: v.open,
        ageMin: toInt(v.ageMin),
        ageMax: toInt(v.ageMax),
        feeFen: yuanToFen(v.fee) ?? Number.NaN,
        deliveryModes: [...(v.pickup ? [1 as const] : []), ...(v.post ? [2 as const] : [])],
        materials: v.materials ? (v.materials.split(',') as MaterialKey[]) : [],
        onePerId: v.onePerId,
        dailyQuota: toInt(v.dailyQuota),
      },
    }),
    success: (s) => `已保存${s.districtName ?? ''}${applyCategoryLabel(s.cardCategory)}的办卡设置`,
    errorFields: ['ageMin', 'ageMax', 'feeFen', 'deliveryModes', 'materials', 'dailyQuota'],
  });
  const { values, errors, set } = form;
  const readOnly = !canSave;
  const chosen = new Set(values.materials ? values.materials.split(',') : []);
  const toggle = (m: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(m);
    else next.delete(m);
    set('materials', [...next].join(','));
  };
  const save = () => {
    if (readOnly || form.busy) return;
    setFeeError(yuanToFen(values.fee) === null ? '请输入金额（元），如 20.00，最多两位小数' : null);
    void form.submit();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };
  return (
    <form noValidate onSubmit={submit} onKeyDown={saveKey(save)} aria-label="办卡设置">
      <h3 className="mb-4 text-base font-medium text-gray-900">
        {setting.districtName} · {applyCategoryLabel(setting.cardCategory)}
      </h3>
      <FormError>{errors['']}</FormError>
      {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：修改办卡设置需要「修改办卡设置」权限。</p>}
      <fieldset disabled={form.busy || readOnly} className="contents">
        <CheckboxField label="开放线上办理" checked={values.open} onChange={(v) => set('open', v)} />
        <Field label="最小年龄" required inputMode="numeric" maxLength={3} value={values.ageMin} onChange={(e) => set('ageMin', e.target.value)} error={errors.ageMin} hint="周岁" />
        <Field label="最大年龄" required inputMode="numeric" maxLength={3} value={values.ageMax} onChange={(e) => set('ageMax', e.target.value)} error={errors.ageMax} hint="周岁" />
        <Field label="工本费（元）" required inputMode="decimal" value={values.fee} onChange={(e) => (set('fee', e.target.value), setFeeError(null))} error={feeError ?? errors.feeFen} hint="0 为免费" />
        <div className="mb-4 text-sm">
          <span className="mr-3 text-gray-600">领取方式</span>
          <label className="mr-4 inline-flex items-center gap-1">
            <input type="checkbox" checked={values.pickup} onChange={(e) => set('pickup', e.target.checked)} />
            {DELIVERY_MODES[1]}
          </label>
          <label className="inline-flex items-center gap-1">
            <input type="checkbox" checked={values.post} onChange={(e) => set('post', e.target.checked)} />
            {DELIVERY_MODES[2]}
          </label>
          {errors.deliveryModes && <p className="mt-1 text-xs text-red-600">{errors.deliveryModes}</p>}
        </div>
        <fieldset className="mb-4 text-sm">
          <legend className="mb-1 text-gray-600">所需材料</legend>
          {(Object.entries(MATERIALS) as [MaterialKey, string][]).map(([k, label]) => (
            <label key={k} className="mr-4 inline-flex items-center gap-1">
              <input type="checkbox" checked={chosen.has(k)} onChange={(e) => toggle(k, e.target.checked)} />
              {label}
            </label>
          ))}
        </fieldset>
        <CheckboxField label="一证一卡（同一身份证只能持有一张有效的该类卡）" checked={values.onePerId} onChange={(v) => set('onePerId', v)} />
        <Field label="每日名额" required inputMode="numeric" maxLength={6} value={values.dailyQuota} onChange={(e) => set('dailyQuota', e.target.value)} error={errors.dailyQuota} hint="0 为不限" />
        <p className="mb-4 text-sm text-gray-600">
          办卡须知：{setting.ruleText.split('\n')[0] || '（未填写）'}（共 {setting.ruleText.length} 字）
        </p>
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button onClick={() => navigate(ruleEditPath(setting.id))}>编辑办卡须知</Button>
        {!readOnly && (
          <Button type="submit" variant="primary" hotkey="Ctrl+S" disabled={form.busy}>
            {form.busy ? '保存中…' : '保存'}
          </Button>
        )}
      </div>
    </form>
  );
}
