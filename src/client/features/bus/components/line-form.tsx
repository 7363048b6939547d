import { type BusLine, busLine } from '../../../../shared/api';
import { LINE_DIRECTIONS } from '../../../../shared/api/bus-line';
import { Field } from '../../../components/field';
import { CheckboxField, FormError, SelectField } from '../../../components/form-controls';
import { StaleNote } from '../../../components/stale-note';
import { useContractForm } from '../../../lib/use-contract-form';

const DIRECTION_OPTIONS = [
  { value: '-1', label: `${LINE_DIRECTIONS['-1']}（上行与下行）` },
  { value: '0', label: `${LINE_DIRECTIONS['0']}` },
  { value: '1', label: `${LINE_DIRECTIONS['1']}` },
];

/** Yuan as typed ("2" or "1.5") to fen; anything else is NaN for the contract to refuse. */
const toFen = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : Number.NaN);

/**
 * The fields of a line (新增线路 and 编辑线路): code, name, direction, loop, first and last bus,
 * fare in yuan (stored in fen). The host renders the buttons; Enter submits through `submit`.
 */
const valuesOf = (l: BusLine) => ({
  code: l.code,
  name: l.name,
  direction: String(l.direction),
  isLoop: l.isLoop,
  firstBus: l.firstBus ?? '',
  lastBus: l.lastBus ?? '',
  fare: (l.fare / 100).toString(),
});

export function useLineForm(row: BusLine | null, onSaved: (saved: BusLine) => void) {
  const form = useContractForm(busLine.busLineSave, {
    initial: row ? valuesOf(row) : { code: '', name: '', direction: '-1', isLoop: false, firstBus: '', lastBus: '', fare: '2' },
    toInput: (v) => ({
      body: {
        ...(row ? { id: row.id } : {}),
        code: v.code,
        name: v.name,
        direction: Number(v.direction),
        isLoop: v.isLoop,
        ...(v.firstBus.trim() ? { firstBus: v.firstBus } : {}),
        ...(v.lastBus.trim() ? { lastBus: v.lastBus } : {}),
        fare: toFen(v.fare),
      },
    }),
    success: (saved) => (row ? `已保存线路「${saved.name}」` : `已新增线路「${saved.name}」`),
    onSaved,
    // Saved from the version it was opened on; another's save meanwhile shows beside the typed text.
    stale: { version: row?.rowVersion, valuesOf },
  });
  return form;
}

export function LineFields({ form, changingDirectionDrops }: { form: ReturnType<typeof useLineForm>; changingDirectionDrops?: boolean }) {
  const { values, errors, set } = form;
  return (
    <>
      <FormError>{errors['']}</FormError>
      <Field label="线路编号" required autoFocus maxLength={16} value={values.code} onChange={(e) => set('code', e.target.value)} error={errors.code} hint="如 49、隧道三线；同一版本内不能重复" note={<StaleNote form={form} field="code" />} />
      <Field label="线路名称" required maxLength={40} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} hint="如 49路" note={<StaleNote form={form} field="name" />} />
      <SelectField
        label="方向"
        options={DIRECTION_OPTIONS}
        value={values.direction}
        onChange={(e) => set('direction', e.target.value)}
        error={errors.direction}
        hint={changingDirectionDrops ? '改为单向会删除另一方向的站点、轨迹与子线路' : undefined}
        note={<StaleNote form={form} field="direction" show={(v) => DIRECTION_OPTIONS.find((o) => o.value === v)?.label ?? v} />}
      />
      <CheckboxField label="环线（末站回到首站）" checked={values.isLoop} onChange={(v) => set('isLoop', v)} hint="环线只有一个方向" />
      <StaleNote form={form} field="isLoop" show={(v) => (v ? '环线' : '非环线')} />
      <Field label="首班时间" inputMode="numeric" placeholder="05:30" maxLength={5} value={values.firstBus} onChange={(e) => set('firstBus', e.target.value)} error={errors.firstBus} note={<StaleNote form={form} field="firstBus" />} />
      <Field label="末班时间" inputMode="numeric" placeholder="22:30" maxLength={5} value={values.lastBus} onChange={(e) => set('lastBus', e.target.value)} error={errors.lastBus} note={<StaleNote form={form} field="lastBus" />} />
      <Field label="票价（元）" inputMode="decimal" value={values.fare} onChange={(e) => set('fare', e.target.value)} error={errors.fare} hint="如 2 或 1.5" note={<StaleNote form={form} field="fare" />} />
    </>
  );
}
