import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { BASE_FIELDS, BASE_FIELD_KEYS, BOARDING_NOTICE_MAX, type BaseField, CUSTOM_SETTING_EDITOR, CUSTOM_SETTING_SYNC, type CustomBaseRow, baseQuery, baseSave } from '../../../../shared/api/custom-setting';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { CheckboxField, FormError, TextAreaField } from '../../../components/form-controls';
import { ScreenSection } from '../../../components/screen-section';
import { StaleNote } from '../../../components/stale-note';
import { useCurrentUser, useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';
import { SyncDialog } from '../components/sync-dialog';
import { hhmmOf, secondsOfHhmm } from '../time-of-day';

const NOTICE_ID = 'custom-base-notice';
const toInt = (text: string) => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

const valuesOf = (b: CustomBaseRow) => ({
  saleDaysAhead: String(b.saleDaysAhead),
  saleOpenTime: hhmmOf(b.saleOpenTime),
  payTimeoutMin: String(b.payTimeoutMin),
  maxSeatsPerUserPerClass: String(b.maxSeatsPerUserPerClass),
  stopSaleMinBefore: String(b.stopSaleMinBefore),
  checkOpenMinBefore: String(b.checkOpenMinBefore),
  monthTicketEnabled: b.monthTicketEnabled,
  monthSaleUntilDay: String(b.monthSaleUntilDay),
  boardingNotice: b.boardingNotice,
  servicePhone: b.servicePhone,
});

/**
 * 基础设置 (CustomBase): the district's sale window, payment timeout, purchase limit, 月票 and 购票须知.
 * A district manager edits their own; the super user chooses an area at the top first, and from there
 * may ★ 同步 fields to other districts. Enter or Ctrl+S saves; a save made from an older version is
 * refused with the other's values shown beside each field.
 */
export function CustomBasePage() {
  const noArea = useNoAreaChosen();
  // Asked only once the account is known: an admin on 全部区域 has no district to ask about.
  const known = !!useCurrentUser().data;
  const base = useApi(baseQuery, known && !noArea ? {} : null);
  return (
    <ScreenSection title="基础设置">
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        {noArea ? (
          <p className="text-sm text-gray-700">基础设置按区域保存：请先在顶部选择区域。</p>
        ) : base.data ? (
          // Keyed by the district only: after a save the version moves inside the form (use-stale-save),
          // so the caret stays where it was when the refetch arrives.
          <BaseForm key={base.data.districtId} base={base.data} />
        ) : (
          <p role="status" className="text-sm text-gray-700">
            {base.error ? `加载失败：${base.error instanceof Error ? base.error.message : String(base.error)}` : '加载中…'}
          </p>
        )}
      </div>
    </ScreenSection>
  );
}

function BaseForm({ base }: { base: CustomBaseRow }) {
  const canSave = useAllowed(CUSTOM_SETTING_EDITOR);
  const canSync = useAllowed(CUSTOM_SETTING_SYNC);
  const [syncing, setSyncing] = useState(false);
  const form = useContractForm(baseSave, {
    initial: valuesOf(base),
    toInput: (v) => ({
      body: {
        saleDaysAhead: toInt(v.saleDaysAhead),
        saleOpenTime: secondsOfHhmm(v.saleOpenTime),
        payTimeoutMin: toInt(v.payTimeoutMin),
        maxSeatsPerUserPerClass: toInt(v.maxSeatsPerUserPerClass),
        stopSaleMinBefore: toInt(v.stopSaleMinBefore),
        checkOpenMinBefore: toInt(v.checkOpenMinBefore),
        monthTicketEnabled: v.monthTicketEnabled,
        monthSaleUntilDay: toInt(v.monthSaleUntilDay),
        boardingNotice: v.boardingNotice,
        servicePhone: v.servicePhone,
        rowVersion: base.rowVersion,
      },
    }),
    success: (saved) => `已保存${saved.districtName ?? ''}定制公交基础设置`,
    check: (v) => (Number.isNaN(secondsOfHhmm(v.saleOpenTime)) ? { saleOpenTime: '每日开售时间应为 HH:mm，如 12:00' } : null),
    stale: { version: base.rowVersion, valuesOf },
  });
  // 修改购票须知 (palette): the form with the caret in the notice.
  useScreenAction(['customSetting', 'custom-base', 'notice'], () => document.getElementById(NOTICE_ID)?.focus());
  useScreenAction(['customSetting', 'custom-base', 'sync'], () => {
    if (canSync) setSyncing(true);
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
  const num = (field: Exclude<BaseField, 'monthTicketEnabled' | 'boardingNotice' | 'servicePhone' | 'saleOpenTime'>, unit: string, hint?: string) => (
    <Field
      label={`${BASE_FIELDS[field].replace(/（分钟）$/, '')}（${unit}）`}
      labelWidth={170}
      required
      inputMode="numeric"
      readOnly={!canSave}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      error={errors[field]}
      hint={hint}
      note={<StaleNote form={form} field={field} />}
    />
  );
  return (
    <>
    <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label="定制公交基础设置">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-medium text-gray-800">{base.districtName}定制公交基础设置</h3>
        {canSync && (
          <Button onClick={() => setSyncing(true)} title="把本区域的设置同步到其他区域">
            同步到其他区域
          </Button>
        )}
      </div>
      <FormError>{errors['']}</FormError>
      {!canSave && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有修改定制公交设置的权限。</p>}
      {!base.updatedDate && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">本区域尚未保存过基础设置，以下为默认值。</p>}
      <fieldset disabled={form.busy} className="contents">
        {num('saleDaysAhead', '天', '班次提前多少天开售，1–62')}
        <Field
          label="每日开售时间"
          labelWidth={170}
          required
          placeholder="12:00"
          readOnly={!canSave}
          value={values.saleOpenTime}
          onChange={(e) => set('saleOpenTime', e.target.value)}
          error={errors.saleOpenTime}
          hint="24小时制 HH:mm"
          note={<StaleNote form={form} field="saleOpenTime" />}
        />
        {num('payTimeoutMin', '分钟', '1–30分钟，超时未支付释放座位')}
        {num('maxSeatsPerUserPerClass', '张', '1–10张')}
        {num('stopSaleMinBefore', '分钟')}
        {num('checkOpenMinBefore', '分钟')}
        <CheckboxField label="开通月票" labelWidth={170} checked={values.monthTicketEnabled} onChange={(v) => set('monthTicketEnabled', v)} disabled={!canSave} />
        {num('monthSaleUntilDay', '日', '下月月票在本月几日前可购，1–28')}
        <Field label="客服电话" labelWidth={170} readOnly={!canSave} maxLength={20} value={values.servicePhone} onChange={(e) => set('servicePhone', e.target.value)} error={errors.servicePhone} note={<StaleNote form={form} field="servicePhone" />} />
        <TextAreaField
          id={NOTICE_ID}
          label="购票须知"
          labelWidth={170}
          rows={5}
          readOnly={!canSave}
          maxLength={BOARDING_NOTICE_MAX}
          value={values.boardingNotice}
          onChange={(e) => set('boardingNotice', e.target.value)}
          error={errors.boardingNotice}
          hint={`${values.boardingNotice.length} / ${BOARDING_NOTICE_MAX} 字${canSave ? '；Ctrl+Enter 或 Ctrl+S 保存' : ''}`}
          note={<StaleNote form={form} field="boardingNotice" show={(v) => (v.length > 80 ? `${v.slice(0, 80)}…` : v)} />}
        />
      </fieldset>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {base.updatedDate && (
          <span className="mr-auto text-xs text-gray-600">
            上次保存：{formatDateTime(base.updatedDate)}
            {base.updatedBy ? `（${base.updatedBy}）` : ''}
          </span>
        )}
        {canSave && (
          <Button type="submit" variant="primary" hotkey="Ctrl+S" disabled={form.busy}>
            {form.busy ? '保存中…' : '保存'}
          </Button>
        )}
      </div>
    </form>
    {/* Outside the form: its keys and submit must not reach this one through the React tree. */}
    {syncing && <SyncDialog source={base} fields={BASE_FIELD_KEYS} onClose={() => setSyncing(false)} />}
    </>
  );
}
