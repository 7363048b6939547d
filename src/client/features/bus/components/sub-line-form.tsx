import { type SubLine, busLine } from '../../../../shared/api';
import { directionLabel, travelledBy } from '../../../../shared/api/bus-line';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { StaleNote } from '../../../components/stale-note';
import { useContractForm } from '../../../lib/use-contract-form';

const valuesOf = (d: SubLine) => ({ lineId: String(d.lineId), name: d.name, direction: String(d.direction), state: String(d.state) });

/** 新增 / 编辑子线路: a named short working of a line, one direction, with its own stops (next screen). */
export function useSubLineForm(row: SubLine | null, lineId: number | null, onSaved: (saved: SubLine) => void) {
  return useContractForm(busLine.busLineDetailSave, {
    initial: row ? { ...valuesOf(row), lineId: lineId ? String(lineId) : '' } : { lineId: lineId ? String(lineId) : '', name: '', direction: '0', state: '1' },
    toInput: (v) => ({ body: { ...(row ? { id: row.id } : {}), lineId: Number(v.lineId), name: v.name, direction: Number(v.direction), state: Number(v.state) } }),
    success: (saved) => (row ? `已保存子线路「${saved.name}」` : `已新增子线路「${saved.name}」`),
    onSaved,
    // Saved from the version it was opened on; another's save meanwhile shows beside the typed text.
    stale: { version: row?.rowVersion, valuesOf },
  });
}

export function SubLineFields({ form, lineDirection }: { form: ReturnType<typeof useSubLineForm>; lineDirection: number | null }) {
  const { values, errors, set } = form;
  const directions = lineDirection === null ? [0, 1] : travelledBy(lineDirection);
  return (
    <>
      <FormError>{errors[''] ?? errors.lineId}</FormError>
      <Field label="子线路名称" required maxLength={40} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} hint="如 49路高峰区间" note={<StaleNote form={form} field="name" />} />
      <SelectField label="方向" options={directions.map((d) => ({ value: String(d), label: directionLabel(d) }))} value={values.direction} onChange={(e) => set('direction', e.target.value)} error={errors.direction} hint="改方向会按新方向重新选站" note={<StaleNote form={form} field="direction" show={(v) => directionLabel(Number(v))} />} />
      <SelectField
        label="状态"
        options={[
          { value: '1', label: '运营' },
          { value: '0', label: '停运' },
        ]}
        value={values.state}
        onChange={(e) => set('state', e.target.value)}
        error={errors.state}
        note={<StaleNote form={form} field="state" show={(v) => (v === '1' ? '运营' : '停运')} />}
      />
    </>
  );
}
