import type { FormEvent, KeyboardEvent } from 'react';
import { CONSUME_ORDER, type RechargeSetting, settingQuery, settingSave } from '../../../../shared/api/wallet';
import { fenToYuan } from '../../../../shared/domain/money';
import { formatDateTime } from '../../../../shared/domain/time';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { CheckboxField, FormError, SelectField } from '../../../components/form-controls';
import { ScreenSection } from '../../../components/screen-section';
import { useCurrentUser } from '../../../lib/current-user';
import { useApi } from '../../../lib/use-api';
import { useContractForm } from '../../../lib/use-contract-form';
import { saveKey } from '../../../lib/use-save-key';
import { yuanToFenText } from '../paths';

const CONSUME_OPTIONS = CONSUME_ORDER.states.map((s) => ({ value: String(s.code), label: s.label }));
const toInt = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

const valuesOf = (s: RechargeSetting) => ({
  min: fenToYuan(s.minFen),
  max: fenToYuan(s.maxFen),
  cap: fenToYuan(s.balanceCapFen),
  dailyTimes: String(s.dailyTimes),
  dailyFen: fenToYuan(s.dailyFen),
  consumeOrder: String(s.consumeOrder),
  giftRefundable: s.giftRefundable,
  adjustMax: fenToYuan(s.adjustSingleMaxFen),
  timeout: String(s.unpaidTimeoutMinutes),
});

/**
 * 储值设置 (RechargeSetting): the city's stored-value rules in yuan (stored in fen). Everyone with
 * the menu reads them; only the super user saves (they apply to every district). Ctrl+S saves.
 */
export function RechargeSettingPage() {
  const setting = useApi(settingQuery, {});
  return (
    <ScreenSection title="储值设置">
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        {setting.data ? <SettingForm key={setting.data.rowVersion} setting={setting.data} /> : <p role="status" className="text-sm text-gray-700">{setting.error ? '加载失败' : '加载中…'}</p>}
      </div>
    </ScreenSection>
  );
}

function SettingForm({ setting }: { setting: RechargeSetting }) {
  const me = useCurrentUser();
  const readOnly = !me.data?.authority.some((a) => a.name === 'ROLE_APP_ADMIN');
  const form = useContractForm(settingSave, {
    initial: valuesOf(setting),
    toInput: (v) => ({
      body: {
        minFen: yuanToFenText(v.min),
        maxFen: yuanToFenText(v.max),
        balanceCapFen: yuanToFenText(v.cap),
        dailyTimes: toInt(v.dailyTimes),
        dailyFen: yuanToFenText(v.dailyFen),
        consumeOrder: Number(v.consumeOrder),
        giftRefundable: v.giftRefundable,
        adjustSingleMaxFen: yuanToFenText(v.adjustMax),
        unpaidTimeoutMinutes: toInt(v.timeout),
        rowVersion: setting.rowVersion,
      },
    }),
    errorFields: ['minFen', 'maxFen', 'balanceCapFen', 'dailyTimes', 'dailyFen', 'consumeOrder', 'adjustSingleMaxFen', 'unpaidTimeoutMinutes'],
    success: () => '已保存储值设置',
  });
  const { values, errors, set } = form;
  const save = () => {
    if (!readOnly && !form.busy) void form.submit();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };
  const yuanHint = '以元为单位，最多两位小数';
  return (
    <form noValidate onSubmit={submit} onKeyDown={(e: KeyboardEvent) => saveKey(save)(e)} aria-label="储值设置">
      <FormError>{errors['']}</FormError>
      {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：储值设置全市统一，只有超级管理员可以修改。</p>}
      <fieldset disabled={form.busy || readOnly} className="contents">
        <Field label="单笔最低（元）" labelWidth={150} required inputMode="decimal" value={values.min} onChange={(e) => set('min', e.target.value)} error={errors.minFen} hint={yuanHint} />
        <Field label="单笔最高（元）" labelWidth={150} required inputMode="decimal" value={values.max} onChange={(e) => set('max', e.target.value)} error={errors.maxFen} />
        <Field label="余额上限（元）" labelWidth={150} required inputMode="decimal" value={values.cap} onChange={(e) => set('cap', e.target.value)} error={errors.balanceCapFen} hint="本金与赠送合计" />
        <Field label="每日充值次数" labelWidth={150} required inputMode="numeric" value={values.dailyTimes} onChange={(e) => set('dailyTimes', e.target.value)} error={errors.dailyTimes} />
        <Field label="每日充值（元）" labelWidth={150} required inputMode="decimal" value={values.dailyFen} onChange={(e) => set('dailyFen', e.target.value)} error={errors.dailyFen} />
        <SelectField label="消费顺序" labelWidth={150} options={CONSUME_OPTIONS} value={values.consumeOrder} onChange={(e) => set('consumeOrder', e.target.value)} error={errors.consumeOrder} />
        <CheckboxField label="赠送金额可退" labelWidth={150} checked={values.giftRefundable} onChange={(v) => set('giftRefundable', v)} disabled={readOnly} hint="不勾选：退款只退本金，赠送随订单收回" />
        <Field label="单笔调账上限（元）" labelWidth={150} required inputMode="decimal" value={values.adjustMax} onChange={(e) => set('adjustMax', e.target.value)} error={errors.adjustSingleMaxFen} hint="超过此金额的人工调账只能由超级管理员复核" />
        <Field label="未支付关闭（分钟）" labelWidth={150} required inputMode="numeric" value={values.timeout} onChange={(e) => set('timeout', e.target.value)} error={errors.unpaidTimeoutMinutes} />
      </fieldset>
      <div className="flex items-center justify-end gap-3">
        {setting.updatedDate && <span className="text-xs text-gray-500">上次保存 {formatDateTime(setting.updatedDate)}</span>}
        {!readOnly && (
          <Button type="submit" variant="primary" hotkey="Ctrl+S" disabled={form.busy}>
            {form.busy ? '保存中…' : '保存'}
          </Button>
        )}
      </div>
    </form>
  );
}
