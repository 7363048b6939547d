import { useState } from 'react';
import { useLocation } from 'wouter';
import { type Driver, LICENCE_CLASSES, driverById, driverSave } from '../../../../shared/api/custom-bus/fleet';
import { DRIVER_STATUS } from '../../../../shared/api/custom-bus/states';
import { addDays, shanghaiDate } from '../../../../shared/domain/time';
import { EditPageButtons, LeaveEditDialog } from '../../../components/edit-page-footer';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { RecordByIdBody } from '../../../components/record-by-id-body';
import { ScreenSection } from '../../../components/screen-section';
import { StaleNote } from '../../../components/stale-note';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenTitle } from '../../../lib/screen-title';
import { useRecordById } from '../../../lib/use-record-by-id';
import { useContractForm } from '../../../lib/use-contract-form';
import { editorKeys } from '../../../lib/use-save-key';
import { driverListPath } from '../fleet-paths';

/**
 * 新增司机 (AddDriver, hidden; also 编辑 with `?id=`). On an edit the phone and citizen id stay as the
 * list shows them (masked) and are kept unless retyped in full: the form never holds the clear
 * values. Ctrl+S or Enter saves, Esc returns.
 */
export function DriverEditPage() {
  const loaded = useRecordById(driverById);
  const driver = loaded.record;
  const title = loaded.id ? '编辑司机' : '新增司机';
  useScreenTitle(title);
  return (
    <ScreenSection title={title}>
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        <h3 className="mb-4 text-base font-medium text-gray-900">{driver ? `${title} · ${driver.name}` : title}</h3>
        <RecordByIdBody loaded={loaded} noun="司机">
          <DriverForm key={driver?.id ?? 'new'} driver={driver ?? null} />
        </RecordByIdBody>
      </div>
    </ScreenSection>
  );
}

const valuesOf = (d: Driver) => ({ name: d.name, phone: d.phone, idNo: d.idNo, licenceClass: d.licenceClass as string, licenceUntil: d.licenceUntil });

function DriverForm({ driver }: { driver: Driver | null }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(driverSave.permission);
  const noArea = useNoAreaChosen();
  const [leaving, setLeaving] = useState(false);
  const form = useContractForm(driverSave, {
    initial: driver ? valuesOf(driver) : { name: '', phone: '', idNo: '', licenceClass: 'A1', licenceUntil: addDays(shanghaiDate(new Date()), 365 * 6) },
    toInput: (v) => ({
      body: {
        ...(driver ? { id: driver.id } : {}),
        name: v.name,
        // Unchanged masked values are not sent: the server keeps the sealed ones.
        ...(driver && v.phone === driver.phone ? {} : { phone: v.phone }),
        ...(driver && v.idNo === driver.idNo ? {} : { idNo: v.idNo.toUpperCase() }),
        licenceClass: v.licenceClass as Driver['licenceClass'],
        licenceUntil: v.licenceUntil,
      },
    }),
    success: (saved) => `${driver ? '已保存' : '已新增'}司机 ${saved.name}`,
    onSaved: () => navigate(driverListPath()),
    stale: { version: driver?.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;
  const readOnly = !canSave;
  const blocked = readOnly || (!driver && noArea);
  const back = () => navigate(driverListPath());
  const { submit, onKeyDown } = editorKeys({ form, blocked, readOnly, back, confirmLeave: () => setLeaving(true) });
  const field = (k: keyof typeof values) => ({ value: values[k], onChange: (e: { target: { value: string } }) => set(k, e.target.value), error: errors[k], note: <StaleNote form={form} field={k} /> });
  const keepHint = driver ? '保持显示的掩码即不修改；修改请输入完整号码' : undefined;
  return (
    <>
      <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label="司机">
        <FormError>{errors['']}</FormError>
        {!driver && noArea && canSave && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：新的司机属于该区域。</p>}
        {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有编辑司机的权限。</p>}
        {driver && <p className="mb-4 text-sm text-gray-600">状态：{DRIVER_STATUS.label(driver.status)}（在司机管理中用“请假 / 恢复在岗 / 停用”改变）</p>}
        <fieldset disabled={form.busy} className="contents">
          <Field labelWidth={128} label="姓名" required autoFocus={!readOnly} readOnly={readOnly} maxLength={20} {...field('name')} />
          <Field labelWidth={128} label="手机号" required readOnly={readOnly} inputMode="tel" maxLength={20} autoComplete="off" hint={keepHint ?? '11位手机号'} {...field('phone')} />
          <Field labelWidth={128} label="身份证号" required readOnly={readOnly} maxLength={20} autoComplete="off" hint={keepHint ?? '18位，即驾驶证号（只存一次）'} {...field('idNo')} />
          <SelectField labelWidth={128} label="准驾车型" required disabled={readOnly} options={LICENCE_CLASSES.map((c) => ({ value: c, label: c }))} value={values.licenceClass} onChange={(e) => set('licenceClass', e.target.value)} error={errors.licenceClass} />
          <Field labelWidth={128} label="驾驶证有效期" required type="date" readOnly={readOnly} hint="最后有效日，含当天；过期不能排班" {...field('licenceUntil')} />
        </fieldset>
        <EditPageButtons readOnly={readOnly} busy={form.busy} blocked={blocked} onBack={back} />
      </form>
      <LeaveEditDialog open={leaving} listName="司机管理" onLeave={back} onClose={() => setLeaving(false)} />
    </>
  );
}
