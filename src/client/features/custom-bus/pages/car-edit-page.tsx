import { useState } from 'react';
import { useLocation } from 'wouter';
import { type Car, SEATS_MAX, carById, carSave } from '../../../../shared/api/custom-bus/fleet';
import { CAR_STATUS } from '../../../../shared/api/custom-bus/states';
import { addDays, shanghaiDate } from '../../../../shared/domain/time';
import { EditPageButtons, LeaveEditDialog } from '../../../components/edit-page-footer';
import { Field } from '../../../components/field';
import { FormError } from '../../../components/form-controls';
import { RecordByIdBody } from '../../../components/record-by-id-body';
import { ScreenSection } from '../../../components/screen-section';
import { StaleNote } from '../../../components/stale-note';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenTitle } from '../../../lib/screen-title';
import { useRecordById } from '../../../lib/use-record-by-id';
import { useContractForm } from '../../../lib/use-contract-form';
import { editorKeys } from '../../../lib/use-save-key';
import { carListPath } from '../fleet-paths';

const toInt = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/**
 * 新增车辆 (AddCar, hidden; also 编辑 with `?id=`): a page, so the list keeps its place. The plate is
 * upper-cased as typed; Ctrl+S or Enter saves, Esc returns (asking first when something was typed).
 */
export function CarEditPage() {
  const loaded = useRecordById(carById);
  const car = loaded.record;
  const title = loaded.id ? '编辑车辆' : '新增车辆';
  useScreenTitle(title);
  return (
    <ScreenSection title={title}>
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        <h3 className="mb-4 text-base font-medium text-gray-900">{car ? `${title} · ${car.plateNo}` : title}</h3>
        <RecordByIdBody loaded={loaded} noun="车辆">
          <CarForm key={car?.id ?? 'new'} car={car ?? null} />
        </RecordByIdBody>
      </div>
    </ScreenSection>
  );
}

const valuesOf = (c: Car) => ({ plateNo: c.plateNo, seats: String(c.seats), model: c.model, company: c.company, inspectionUntil: c.inspectionUntil, insuranceUntil: c.insuranceUntil });

function CarForm({ car }: { car: Car | null }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(carSave.permission);
  const noArea = useNoAreaChosen();
  const [leaving, setLeaving] = useState(false);
  const today = shanghaiDate(new Date());
  const form = useContractForm(carSave, {
    initial: car ? valuesOf(car) : { plateNo: '', seats: '49', model: '', company: '', inspectionUntil: addDays(today, 365), insuranceUntil: addDays(today, 365) },
    toInput: (v) => ({ body: { ...(car ? { id: car.id } : {}), plateNo: v.plateNo, seats: toInt(v.seats), model: v.model, company: v.company, inspectionUntil: v.inspectionUntil, insuranceUntil: v.insuranceUntil } }),
    success: (saved) => `${car ? '已保存' : '已新增'}车辆 ${saved.plateNo}`,
    onSaved: () => navigate(carListPath()),
    stale: { version: car?.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;
  const readOnly = !canSave;
  const blocked = readOnly || (!car && noArea);
  const back = () => navigate(carListPath());
  const { submit, onKeyDown } = editorKeys({ form, blocked, readOnly, back, confirmLeave: () => setLeaving(true) });
  const field = (k: keyof typeof values) => ({ value: values[k], onChange: (e: { target: { value: string } }) => set(k, e.target.value), error: errors[k], note: <StaleNote form={form} field={k} /> });
  return (
    <>
      <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label="车辆">
        <FormError>{errors['']}</FormError>
        {!car && noArea && canSave && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：新的车辆属于该区域。</p>}
        {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有编辑车辆的权限。</p>}
        {car && <p className="mb-4 text-sm text-gray-600">状态：{CAR_STATUS.label(car.status)}（在车辆管理中用“维修 / 恢复可用 / 停用”改变）{car.futureClasses > 0 ? `，未发车班次 ${car.futureClasses} 个` : ''}</p>}
        <fieldset disabled={form.busy} className="contents">
          <Field labelWidth={112} label="车牌号" required autoFocus={!readOnly} readOnly={readOnly} maxLength={10} placeholder="沪A12345" hint="含新能源车牌，如 沪AD12345" {...field('plateNo')} onChange={(e) => set('plateNo', e.target.value.toUpperCase())} />
          <Field labelWidth={112} label="座位数" required readOnly={readOnly} inputMode="numeric" maxLength={2} hint={`核载座位，1–${SEATS_MAX}；班次的发行数量不能超过它`} {...field('seats')} />
          <Field labelWidth={112} label="车型" readOnly={readOnly} maxLength={30} placeholder="宇通ZK6107" {...field('model')} />
          <Field labelWidth={112} label="所属公司" readOnly={readOnly} maxLength={30} {...field('company')} />
          <Field labelWidth={112} label="年检有效期" required type="date" readOnly={readOnly} hint="最后有效日，含当天；过期不能排班" {...field('inspectionUntil')} />
          <Field labelWidth={112} label="保险有效期" required type="date" readOnly={readOnly} hint="最后有效日，含当天" {...field('insuranceUntil')} />
        </fieldset>
        <EditPageButtons readOnly={readOnly} busy={form.busy} blocked={blocked} onBack={back} />
      </form>
      <LeaveEditDialog open={leaving} listName="车辆管理" onLeave={back} onClose={() => setLeaving(false)} />
    </>
  );
}
