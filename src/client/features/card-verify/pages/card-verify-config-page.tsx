import { type FormEvent, type KeyboardEvent, useState } from 'react';
import * as api from '../../../../shared/api/card-verify';
import { MATERIAL_KINDS, VERIFY_CATEGORY, type VerifyConfig } from '../../../../shared/api/card-verify';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { CheckboxField, FormError } from '../../../components/form-controls';
import { FlowBadge } from '../../../components/resource/status-badge';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';

const toInt = (text: string) => (/^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

const valuesOf = (c: VerifyConfig) => ({
  enabled: c.enabled,
  windowMonthsBefore: String(c.windowMonthsBefore),
  validMonths: String(c.validMonths),
  requireFace: c.requireFace,
  faceThreshold: String(c.faceThreshold),
  requireOcr: c.requireOcr,
  yearlyProof: c.yearlyProof,
  graceDays: String(c.graceDays),
  suspendOnMiss: c.suspendOnMiss,
  ageMin: String(c.ageMin),
  ageMax: String(c.ageMax),
  materials: c.materials as string[],
  noticeCode: c.noticeCode ?? '',
});

/**
 * 验卡配置 (CardVerifyConfig): one row per card type and district; ↑/↓ or a click chooses one, its
 * form beside the list. Enter or Ctrl+S saves; the server's refusals (验卡提前月数应在1–6之间…) show
 * above the form. The configurer's alone; others read.
 */
export function CardVerifyConfigPage() {
  const configs = useApi(api.verifyConfigList, { query: {} });
  const rows = configs.data ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const current = rows.find((r) => r.id === chosen) ?? rows[0];
  const move = (e: KeyboardEvent, i: number) => {
    const next = e.key === 'ArrowDown' || e.key === 'j' ? i + 1 : e.key === 'ArrowUp' || e.key === 'k' ? i - 1 : null;
    if (next === null || !rows[next]) return;
    e.preventDefault();
    setChosen(rows[next]!.id);
    (e.currentTarget.parentElement?.children[next] as HTMLElement | undefined)?.focus();
  };
  return (
    <ScreenSection title="验卡配置">
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="rounded border border-gray-200 bg-white p-2">
          {configs.isLoading && !rows.length ? (
            <p role="status" className="p-2 text-sm text-gray-700">加载中…</p>
          ) : (
            <ul role="listbox" aria-label="验卡配置列表" className="max-h-[36rem] overflow-y-auto text-sm">
              {rows.map((c, i) => (
                <li
                  key={c.id}
                  role="option"
                  aria-selected={c.id === current?.id}
                  tabIndex={c.id === current?.id ? 0 : -1}
                  onClick={() => setChosen(c.id)}
                  onKeyDown={(e) => move(e, i)}
                  className={`flex cursor-pointer flex-wrap items-center gap-2 rounded px-2 py-1.5 ${c.id === current?.id ? 'bg-blue-50' : 'hover:bg-gray-50'}`}
                >
                  <span className="w-16">{c.districtName}</span>
                  <FlowBadge flow={VERIFY_CATEGORY} code={c.category} />
                  <span className="text-gray-700">{c.enabled ? '启用' : '停用'}</span>
                  <span className="ml-auto text-xs text-gray-600 tabular-nums">
                    提前{c.windowMonthsBefore}月 · 有效{c.validMonths}月 · 人脸≥{c.faceThreshold}
                  </span>
                </li>
              ))}
              {!rows.length && <li className="p-2 text-gray-600">暂无配置</li>}
            </ul>
          )}
        </div>
        <div className="rounded border border-gray-200 bg-white p-4">{current ? <ConfigForm key={`${current.id}-${current.rowVersion}`} config={current} /> : null}</div>
      </div>
    </ScreenSection>
  );
}

function ConfigForm({ config }: { config: VerifyConfig }) {
  const canSave = useAllowed(api.CARD_VERIFY_CONFIGURER);
  const form = useContractForm(api.verifyConfigSave, {
    initial: valuesOf(config),
    toInput: (v) => ({
      body: {
        id: config.id,
        districtId: config.districtId,
        category: config.category,
        enabled: v.enabled,
        windowMonthsBefore: toInt(v.windowMonthsBefore),
        validMonths: toInt(v.validMonths),
        requireFace: v.requireFace,
        faceThreshold: toInt(v.faceThreshold),
        requireOcr: v.requireOcr,
        yearlyProof: v.yearlyProof,
        graceDays: toInt(v.graceDays),
        suspendOnMiss: v.suspendOnMiss,
        ageMin: toInt(v.ageMin),
        ageMax: toInt(v.ageMax),
        materials: v.materials as api.MaterialKind[],
        noticeCode: v.noticeCode.trim() || null,
        rowVersion: config.rowVersion,
      },
    }),
    success: (saved) => `已保存${saved.districtName ?? ''}${VERIFY_CATEGORY.label(saved.category)}验卡配置`,
  });
  const { values, errors, set } = form;
  const save = () => {
    if (canSave && !form.busy) void form.submit();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return submit(e);
    saveKey(save)(e);
  };
  const num = (field: 'windowMonthsBefore' | 'validMonths' | 'faceThreshold' | 'graceDays' | 'ageMin' | 'ageMax', label: string, hint?: string) => (
    <Field label={label} labelWidth={150} required inputMode="numeric" readOnly={!canSave} value={values[field]} onChange={(e) => set(field, e.target.value)} error={errors[field]} hint={hint} />
  );
  const toggle = (m: string, on: boolean) => set('materials', on ? MATERIAL_KINDS.filter((k) => k === m || values.materials.includes(k)) : values.materials.filter((k) => k !== m));
  return (
    <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label="验卡配置">
      <h3 className="mb-3 text-base font-medium text-gray-800">
        {config.districtName} · {VERIFY_CATEGORY.label(config.category)}验卡配置
      </h3>
      <FormError>{errors['']}</FormError>
      {!canSave && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有修改验卡配置的权限。</p>}
      <fieldset disabled={form.busy} className="contents">
        <CheckboxField label="开放线上验卡" labelWidth={150} checked={values.enabled} onChange={(v) => set('enabled', v)} disabled={!canSave} />
        {num('windowMonthsBefore', '提前月数', '到期前几个月可申请，1–6')}
        {num('validMonths', '有效期（月）', '通过后验卡有效期，1–36')}
        {num('graceDays', '宽限天数', '到期后仍享优惠的天数，0–90')}
        <CheckboxField label="逾期暂停优惠" labelWidth={150} checked={values.suspendOnMiss} onChange={(v) => set('suspendOnMiss', v)} disabled={!canSave} />
        {num('ageMin', '年龄下限（周岁）')}
        {num('ageMax', '年龄上限（周岁）')}
        <CheckboxField label="人脸比对" labelWidth={150} checked={values.requireFace} onChange={(v) => set('requireFace', v)} disabled={!canSave} />
        {num('faceThreshold', '人脸比对阈值（分）', '50–100，低于阈值须人工核验说明')}
        <CheckboxField label="证件识别（OCR）" labelWidth={150} checked={values.requireOcr} onChange={(v) => set('requireOcr', v)} disabled={!canSave} />
        <CheckboxField label="每年提交在读证明" labelWidth={150} checked={values.yearlyProof} onChange={(v) => set('yearlyProof', v)} disabled={!canSave} />
        <fieldset className="mb-4">
          <legend className="mb-1 text-sm text-gray-800">所需材料</legend>
          <div className="flex flex-wrap gap-3 text-sm">
            {MATERIAL_KINDS.map((m) => (
              <label key={m} className="flex items-center gap-1">
                <input type="checkbox" checked={values.materials.includes(m)} disabled={!canSave} onChange={(e) => toggle(m, e.target.checked)} />
                {m}
              </label>
            ))}
          </div>
          {errors.materials && <p className="mt-1 text-sm text-red-700">{errors.materials}</p>}
        </fieldset>
        <Field label="提醒模板编号" labelWidth={150} readOnly={!canSave} maxLength={40} value={values.noticeCode} onChange={(e) => set('noticeCode', e.target.value)} error={errors.noticeCode} />
      </fieldset>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <span className="mr-auto text-xs text-gray-600">上次保存：{formatDateTime(config.updatedDate)}</span>
        {canSave && (
          <Button type="submit" variant="primary" hotkey="Ctrl+S" disabled={form.busy}>
            {form.busy ? '保存中…' : '保存'}
          </Button>
        )}
      </div>
    </form>
  );
}
