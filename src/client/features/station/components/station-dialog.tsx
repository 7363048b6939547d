import { type Station, station } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { Modal, ModalActions } from '../../../components/modal';
import { StaleNote } from '../../../components/stale-note';
import { RecordChangedNotice } from '../../../components/record-changed-notice';
import { useContractForm } from '../../../lib/use-contract-form';

/** Coordinates are typed as decimal degrees (GCJ-02, as map apps show them); "lng, lat" pasted whole also works. */
const parseNumber = (v: string) => (v.trim() === '' ? Number.NaN : Number(v.trim()));

/**
 * 新增 / 编辑站点. Longitude and latitude are GCJ-02 (what Chinese map apps copy); a pair pasted
 * into 经度 as "121.47, 31.23" fills both fields.
 */
const valuesOf = (s: Station) => ({ name: s.name, lng: String(s.lng), lat: String(s.lat), state: String(s.state) });

export function StationDialog({ row, onClose, onSaved }: { row: Station | null; onClose(): void; onSaved(): void }) {
  const form = useContractForm(station.stationSave, {
    initial: row ? valuesOf(row) : { name: '', lng: '', lat: '', state: '1' },
    toInput: (v) => ({ body: { ...(row ? { id: row.id } : {}), name: v.name, lng: parseNumber(v.lng), lat: parseNumber(v.lat), state: Number(v.state) } }),
    success: (saved) => (row ? `已保存站点「${saved.name}」` : `已新增站点「${saved.name}」`),
    onSaved,
    // Saved from the version it was opened on; another's save meanwhile shows beside the typed text.
    stale: { version: row?.rowVersion, valuesOf },
  });
  const { values, errors, set, setValues } = form;
  const onLng = (text: string) => {
    const pair = /^\s*(\d+(?:\.\d+)?)\s*[,，\s]\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
    if (pair?.[1] && pair[2]) setValues((v) => ({ ...v, lng: pair[1]!, lat: pair[2]! }));
    else set('lng', text);
  };
  return (
    <Modal
      open
      title={row ? `编辑站点 · ${row.name}` : '新增站点'}
      onClose={onClose}
      dirty={form.dirty}
      onSubmit={() => void form.submit()}
      footer={<ModalActions onCancel={onClose} busy={form.busy} />}
    >
      <RecordChangedNotice kind="station" id={row?.id} />
      <FormError>{errors['']}</FormError>
      <Field label="站点名称" required autoFocus maxLength={40} value={values.name} onChange={(e) => set('name', e.target.value)} error={errors.name} note={<StaleNote form={form} field="name" />} />
      <Field label="经度" required inputMode="decimal" value={values.lng} onChange={(e) => onLng(e.target.value)} error={errors.lng} note={<StaleNote form={form} field="lng" />} hint="GCJ-02，如 121.473700；可粘贴“经度, 纬度”" />
      <Field label="纬度" required inputMode="decimal" value={values.lat} onChange={(e) => set('lat', e.target.value)} error={errors.lat} note={<StaleNote form={form} field="lat" />} hint="如 31.230400" />
      <SelectField
        label="状态"
        options={[
          { value: '1', label: '启用' },
          { value: '0', label: '停用' },
        ]}
        value={values.state}
        onChange={(e) => set('state', e.target.value)}
        error={errors.state}
        note={<StaleNote form={form} field="state" show={(v) => (v === '1' ? '启用' : '停用')} />}
      />
    </Modal>
  );
}
