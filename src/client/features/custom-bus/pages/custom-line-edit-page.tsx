import { useState } from 'react';
import { useLocation } from 'wouter';
import { type CustomLine, LINE_NAME_MAX, LINE_NO_MAX, LINE_REMARK_MAX, derivedPrice, lineById, lineSave, stationPage } from '../../../../shared/api/custom-bus/network';
import { DISCOUNT_TYPE, LINE_DIRECTION, TICKET_TYPE } from '../../../../shared/api/custom-bus/states';
import { fenToYuan, yuanToFen } from '../../../../shared/domain/money';
import { EditPageButtons, LeaveEditDialog } from '../../../components/edit-page-footer';
import { Field } from '../../../components/field';
import { CheckboxField, FormError, SelectField, TextAreaField } from '../../../components/form-controls';
import { RecordByIdBody } from '../../../components/record-by-id-body';
import { ScreenSection } from '../../../components/screen-section';
import { StaleNote } from '../../../components/stale-note';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { useScreenTitle } from '../../../lib/screen-title';
import { useApi } from '../../../lib/use-api';
import { useRecordById } from '../../../lib/use-record-by-id';
import { useContractForm } from '../../../lib/use-contract-form';
import { editorKeys } from '../../../lib/use-save-key';
import { lineListPath, linePathPath } from '../network-paths';

const toInt = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
const toFen = (text: string) => yuanToFen(text) ?? Number.NaN;
/** 折 as typed (8.5) to ‰ (850); anything else stays NaN for the contract to refuse. */
const toRate = (text: string) => (/^\d(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : Number.NaN);

/**
 * 新增定制线路 (AddCustomLine, hidden; also 编辑 with `?id=`): the line's form. Money in yuan, the
 * discount in 折 (8.5), times as HH:mm; the price riders pay is shown as it is derived. Ctrl+S or
 * Enter saves, Esc returns; a new line is a draft until its paths are drawn and it is 上架.
 */
export function CustomLineEditPage() {
  const loaded = useRecordById(lineById);
  const line = loaded.record;
  const title = loaded.id ? '编辑定制线路' : '新增定制线路';
  useScreenTitle(title);
  return (
    <ScreenSection title={title}>
      <div className="max-w-2xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        <h3 className="mb-4 text-base font-medium text-gray-900">{line ? `${title} · ${line.lineNo} ${line.name}` : title}</h3>
        <RecordByIdBody loaded={loaded} noun="线路">
          <LineForm key={line?.id ?? 'new'} line={line ?? null} />
        </RecordByIdBody>
      </div>
    </ScreenSection>
  );
}

const valuesOf = (l: CustomLine) => ({
  lineNo: l.lineNo,
  name: l.name,
  direction: String(l.direction),
  startStationId: l.startStationId ? String(l.startStationId) : '',
  endStationId: l.endStationId ? String(l.endStationId) : '',
  departTime: l.departTime,
  arriveTime: l.arriveTime,
  returnDepartTime: l.returnDepartTime ?? '',
  returnArriveTime: l.returnArriveTime ?? '',
  originalPrice: fenToYuan(l.originalPrice),
  discountType: String(l.discountType),
  discountRate: l.discountRate ? String(l.discountRate / 100) : '',
  discountPrice: l.discountPrice ? fenToYuan(l.discountPrice) : '',
  single: l.ticketTypes.includes(1),
  monthly: l.ticketTypes.includes(2),
  defaultSeats: String(l.defaultSeats),
  sort: String(l.sort),
  remark: l.remark,
});

function LineForm({ line }: { line: CustomLine | null }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(lineSave.permission);
  const noArea = useNoAreaChosen();
  const [leaving, setLeaving] = useState(false);
  const stations = useApi(stationPage, { query: { page: 0, size: 1000, sort: 'name,asc' } });
  const form = useContractForm(lineSave, {
    initial: line
      ? valuesOf(line)
      : { lineNo: '', name: '', direction: '-1', startStationId: '', endStationId: '', departTime: '07:30', arriveTime: '08:30', returnDepartTime: '17:30', returnArriveTime: '18:30', originalPrice: '', discountType: '1', discountRate: '', discountPrice: '', single: true, monthly: true, defaultSeats: '45', sort: '0', remark: '' },
    toInput: (v) => ({
      body: {
        ...(line ? { id: line.id } : {}),
        lineNo: v.lineNo,
        name: v.name,
        direction: Number(v.direction) as -1 | 0 | 1,
        startStationId: toInt(v.startStationId),
        endStationId: toInt(v.endStationId),
        departTime: v.departTime,
        arriveTime: v.arriveTime,
        returnDepartTime: v.direction === '-1' ? v.returnDepartTime : null,
        returnArriveTime: v.direction === '-1' ? v.returnArriveTime : null,
        originalPrice: toFen(v.originalPrice),
        discountType: Number(v.discountType) as 1 | 2 | 3,
        discountRate: v.discountType === '2' ? toRate(v.discountRate) : null,
        discountPrice: v.discountType === '3' ? toFen(v.discountPrice) : null,
        ticketTypes: [...(v.single ? [1 as const] : []), ...(v.monthly ? [2 as const] : [])],
        defaultSeats: toInt(v.defaultSeats),
        sort: toInt(v.sort || '0'),
        remark: v.remark,
      },
    }),
    errorFields: ['lineNo', 'name', 'direction', 'startStationId', 'endStationId', 'departTime', 'arriveTime', 'returnDepartTime', 'returnArriveTime', 'originalPrice', 'discountType', 'discountRate', 'discountPrice', 'ticketTypes', 'defaultSeats', 'sort', 'remark'],
    success: (saved) => `${line ? '已保存' : '已新增'}定制线路 ${saved.lineNo}「${saved.name}」${line ? '' : '（草稿：请设置轨迹后上架）'}`,
    // A new line goes on to its path (上架 needs one); an edit back to the list.
    onSaved: (saved) => navigate(line ? lineListPath() : linePathPath(saved.id)),
    stale: { version: line?.rowVersion, valuesOf },
  });
  const { values, errors, set } = form;
  const readOnly = !canSave;
  const blocked = readOnly || (!line && noArea);
  const back = () => navigate(lineListPath());
  const { submit, onKeyDown } = editorKeys({ form, blocked, readOnly, back, confirmLeave: () => setLeaving(true) });
  const text = (k: 'lineNo' | 'name' | 'departTime' | 'arriveTime' | 'returnDepartTime' | 'returnArriveTime' | 'originalPrice' | 'discountRate' | 'discountPrice' | 'defaultSeats' | 'sort') => ({
    value: values[k],
    onChange: (e: { target: { value: string } }) => set(k, e.target.value),
    error: errors[k],
    note: <StaleNote form={form} field={k} />,
  });
  const stationOptions = [{ value: '', label: '请选择' }, ...(stations.data?.content ?? []).map((s) => ({ value: String(s.id), label: `${s.name}${s.status === 0 ? '（停用）' : ''}` }))];
  const original = toFen(values.originalPrice);
  const price = Number.isNaN(original) ? null : derivedPrice({ originalPrice: original, discountType: Number(values.discountType), discountRate: toRate(values.discountRate) || null, discountPrice: toFen(values.discountPrice) || null });
  const listed = line?.status === 1;
  return (
    <>
      <form noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label="定制线路">
        <FormError>{errors['']}</FormError>
        {!line && noArea && canSave && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：新的线路属于该区域。</p>}
        {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有编辑定制线路的权限。</p>}
        {listed && <p className="mb-4 rounded bg-amber-50 px-3 py-2 text-sm text-amber-800">已上架线路不能修改方向；票价的修改只影响之后新建的班次。</p>}
        <fieldset disabled={form.busy} className="contents">
          <Field labelWidth={112} label="线路编号" required autoFocus={!readOnly} readOnly={readOnly} maxLength={LINE_NO_MAX} placeholder="D101" {...text('lineNo')} />
          <Field labelWidth={112} label="线路名称" required readOnly={readOnly} maxLength={LINE_NAME_MAX} hint={`最多${LINE_NAME_MAX}字，如 莘庄—漕河泾`} {...text('name')} />
          <SelectField
            labelWidth={112}
            label="方向"
            required
            disabled={readOnly || listed}
            options={Object.entries(LINE_DIRECTION).map(([value, label]) => ({ value, label }))}
            value={values.direction}
            onChange={(e) => set('direction', e.target.value)}
            error={errors.direction}
            hint="往返：早上行、晚下行"
          />
          <SelectField labelWidth={112} label="起点站" required disabled={readOnly} options={stationOptions} value={values.startStationId} onChange={(e) => set('startStationId', e.target.value)} error={errors.startStationId} />
          <SelectField labelWidth={112} label="终点站" required disabled={readOnly} options={stationOptions} value={values.endStationId} onChange={(e) => set('endStationId', e.target.value)} error={errors.endStationId} />
          <Field labelWidth={112} label={values.direction === '1' ? '下行出发时间' : '出发时间'} required readOnly={readOnly} placeholder="07:30" maxLength={5} {...text('departTime')} />
          <Field labelWidth={112} label={values.direction === '1' ? '下行到达时间' : '到达时间'} required readOnly={readOnly} placeholder="08:30" maxLength={5} {...text('arriveTime')} />
          {values.direction === '-1' && (
            <>
              <Field labelWidth={112} label="返程出发时间" required readOnly={readOnly} placeholder="17:30" maxLength={5} {...text('returnDepartTime')} />
              <Field labelWidth={112} label="返程到达时间" required readOnly={readOnly} placeholder="18:30" maxLength={5} {...text('returnArriveTime')} />
            </>
          )}
          <Field labelWidth={112} label="原价（元）" required readOnly={readOnly} inputMode="decimal" placeholder="15.00" {...text('originalPrice')} />
          <SelectField
            labelWidth={112}
            label="优惠方式"
            disabled={readOnly}
            options={Object.entries(DISCOUNT_TYPE).map(([value, label]) => ({ value, label }))}
            value={values.discountType}
            onChange={(e) => set('discountType', e.target.value)}
            error={errors.discountType}
          />
          {values.discountType === '2' && <Field labelWidth={112} label="折扣（折）" required readOnly={readOnly} inputMode="decimal" placeholder="8.5" hint="0.1–9.9折" {...text('discountRate')} />}
          {values.discountType === '3' && <Field labelWidth={112} label="折后金额（元）" required readOnly={readOnly} inputMode="decimal" placeholder="12.00" hint="不能高于原价" {...text('discountPrice')} />}
          <p className="mb-4 text-sm text-gray-700 sm:pl-[112px]" role="status">
            售价：<span className="font-medium tabular-nums">{price === null ? '—' : `${fenToYuan(price)} 元`}</span>
          </p>
          <CheckboxField labelWidth={112} label={TICKET_TYPE[1]} checked={values.single} disabled={readOnly} onChange={(v) => set('single', v)} />
          <CheckboxField labelWidth={112} label={TICKET_TYPE[2]} checked={values.monthly} disabled={readOnly} onChange={(v) => set('monthly', v)} hint={errors.ticketTypes ? <span className="text-red-700">{errors.ticketTypes}</span> : '月票包含当月全部工作日班次'} />
          <Field labelWidth={112} label="默认座位数" required readOnly={readOnly} inputMode="numeric" maxLength={2} hint="新建班次的发行座位，1–80" {...text('defaultSeats')} />
          <Field labelWidth={112} label="排序" readOnly={readOnly} inputMode="numeric" maxLength={4} hint="小的在前" {...text('sort')} />
          <TextAreaField labelWidth={112} label="备注" readOnly={readOnly} rows={2} maxLength={LINE_REMARK_MAX} value={values.remark} onChange={(e) => set('remark', e.target.value)} error={errors.remark} />
        </fieldset>
        <EditPageButtons readOnly={readOnly} busy={form.busy} blocked={blocked} onBack={back} />
      </form>
      <LeaveEditDialog open={leaving} listName="定制线路" onLeave={back} onClose={() => setLeaving(false)} />
    </>
  );
}
