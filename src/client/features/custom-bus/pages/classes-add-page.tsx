import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { type BatchConflict, CLASSES_MAX_DAYS, classesBatchSave, classesOptions, daysBetween, secondsToTime } from '../../../../shared/api/custom-bus/classes';
import { fenToYuan } from '../../../../shared/domain/money';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { FormError, SelectField } from '../../../components/form-controls';
import { PinyinPicker } from '../../../components/pinyin-picker';
import { ScreenSection } from '../../../components/screen-section';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useScreenLocation } from '../../../lib/screen-context';
import { toast } from '../../../lib/toast';
import { useApi } from '../../../lib/use-api';
import { classesPath, parseTimes, quickRanges } from '../classes-paths';

const WEEKDAYS = ['一', '二', '三', '四', '五', '六', '日'];
const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);
const toFen = (yuan: string) => (/^\d+(\.\d{1,2})?$/.test(yuan.trim()) ? Math.round(Number(yuan.trim()) * 100) : Number.NaN);

interface Checked {
  /** The inputs the dry run was of: confirming sends exactly these. */
  key: string;
  slots: number;
  conflicts: BatchConflict[];
}

/**
 * 新增班次 (AddClasses, hidden): 批量排班 — a line (typed by pinyin), a date range (下周一至五 and other
 * quick ranges), weekdays, the times (`07:30,08:00`), seats, optionally price, car and driver. Enter
 * runs the dry run, which lists every conflict per date and time and writes nothing; Ctrl+Enter then
 * writes the batch (all or nothing). Esc returns to 班次管理. The palette's 批量排班 opens it filled in
 * with `check=1`, so the dry run is already shown.
 */
export function ClassesAddPage() {
  const [, navigate] = useLocation();
  const { search } = useScreenLocation();
  const given = useMemo(() => new URLSearchParams(search), [search]);
  const canSave = useAllowed(classesBatchSave.permission);
  const options = useApi(classesOptions, {});
  const lines = options.data?.lines ?? [];
  const [lineId, setLineId] = useState<number | null>(Number(given.get('lineId')) || null);
  const line = lines.find((l) => l.id === lineId) ?? null;
  const [direction, setDirection] = useState('0');
  const [dateFrom, setDateFrom] = useState(given.get('dateFrom') ?? '');
  const [dateTo, setDateTo] = useState(given.get('dateTo') ?? '');
  const [weekdays, setWeekdays] = useState<number[]>(given.get('weekdays') ? given.get('weekdays')!.split(',').map(Number).filter((n) => n >= 1 && n <= 7) : [1, 2, 3, 4, 5]);
  const [times, setTimes] = useState(given.get('times') ?? '');
  const [publish, setPublish] = useState(given.get('publish') ?? '');
  const [price, setPrice] = useState('');
  const [carId, setCarId] = useState('');
  const [driverId, setDriverId] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [checked, setChecked] = useState<Checked | null>(null);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const cars = (options.data?.cars ?? []).filter((c) => !line || c.districtId === line.districtId);
  const drivers = (options.data?.drivers ?? []).filter((d) => !line || d.districtId === line.districtId);

  // A line chosen: its seats and its one direction (a 往返 line asks which leg).
  useEffect(() => {
    if (!line) return;
    setPublish((p) => p || String(line.defaultSeats));
    if (line.direction !== -1) setDirection(String(line.direction));
  }, [line]);

  /** The body of the current inputs, or the fields' refusals. */
  const build = () => {
    const e: Record<string, string | null> = {};
    if (!line) e.lineId = '请选择线路';
    if (!isDay(dateFrom)) e.dateFrom = '请输入开始日期（YYYY-MM-DD）';
    if (!isDay(dateTo)) e.dateTo = '请输入结束日期（YYYY-MM-DD）';
    if (!e.dateFrom && !e.dateTo && dateTo < dateFrom) e.dateTo = '结束日期不能早于开始日期';
    if (!e.dateFrom && !e.dateTo && !e.dateTo && daysBetween(dateFrom, dateTo) > CLASSES_MAX_DAYS) e.dateTo = `批量排班一次最多${CLASSES_MAX_DAYS}天`;
    if (!weekdays.length) e.weekdays = '请至少选择一天';
    const t = parseTimes(times);
    if (t.bad) e.times = `「${t.bad}」不是时刻，请写成 07:30,08:00`;
    else if (!t.times.length) e.times = '请填写发车时刻，如 07:30,08:00';
    const seats = /^\d+$/.test(publish.trim()) ? Number(publish.trim()) : Number.NaN;
    if (!(seats >= 1 && seats <= 80)) e.publish = '座位数应在1–80之间';
    const fen = price.trim() ? toFen(price) : undefined;
    if (fen !== undefined && !(fen > 0)) e.price = '请输入票价（元），如 12.00';
    setErrors(e);
    if (Object.values(e).some(Boolean)) return null;
    return {
      lineId: line!.id,
      direction: Number(direction) as 0 | 1,
      dateFrom,
      dateTo,
      weekdays: [...weekdays].sort(),
      times: t.times,
      publish: seats,
      ...(fen !== undefined ? { price: fen } : {}),
      carId: carId ? Number(carId) : null,
      driverId: driverId ? Number(driverId) : null,
    };
  };
  const current = () => {
    const b = build();
    return b ? { body: b, key: JSON.stringify(b) } : null;
  };

  const dryRun = () => {
    const c = current();
    if (!c || busy) return;
    setBusy(true);
    api
      .call(classesBatchSave, { body: { ...c.body, dryRun: true } }, { silent: true })
      .then((r) => setChecked({ key: c.key, slots: r.slots, conflicts: r.conflicts }))
      .catch((e: unknown) => setErrors({ '': e instanceof Error ? e.message : '检查失败' }))
      .finally(() => setBusy(false));
  };
  const confirm = () => {
    const c = current();
    if (!c || busy || !canSave) return;
    if (!checked || checked.key !== c.key) {
      // Confirming what was not checked: check first (the operator sees the list, then confirms).
      dryRun();
      return;
    }
    if (checked.conflicts.length) return;
    setBusy(true);
    api
      .call(classesBatchSave, { body: { ...c.body, dryRun: false } }, { silent: true })
      .then((r) => {
        toast.success(`已排班 ${r.ids.length} 个班次（${line?.name ?? ''} ${c.body.dateFrom} 至 ${c.body.dateTo}）`);
        navigate(classesPath({ lineId: c.body.lineId, dateFrom: c.body.dateFrom, dateTo: c.body.dateTo }));
      })
      .catch((e: unknown) => {
        const data = (e as { data?: { conflicts?: BatchConflict[] } }).data;
        if (data?.conflicts) setChecked({ key: c.key, slots: checked.slots, conflicts: data.conflicts });
        setErrors({ '': e instanceof Error ? e.message : '排班失败' });
      })
      .finally(() => setBusy(false));
  };

  // The palette's 批量排班 arrives filled in: run the dry run once the line is known.
  const autoChecked = useRef(false);
  useEffect(() => {
    if (autoChecked.current || given.get('check') !== '1' || !line || !publish) return;
    autoChecked.current = true;
    dryRun();
  });

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      navigate(classesPath());
    } else if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT' && !(e.target as HTMLElement).closest('[role="combobox"]') && (e.target as HTMLElement) !== picker.current) {
      e.preventDefault();
      dryRun();
    }
  };
  // Ctrl+Enter confirms from anywhere on the page (after the palette, focus may be on the page itself).
  const confirmRef = useRef(confirm);
  confirmRef.current = confirm;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.defaultPrevented) return;
      if ((e.target as HTMLElement | null)?.closest?.('[role="dialog"]')) return;
      e.preventDefault();
      confirmRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const edited = () => setChecked(null);
  const stale = checked !== null && checked.key !== JSON.stringify(buildQuiet());
  function buildQuiet() {
    const t = parseTimes(times);
    const fen = price.trim() ? toFen(price) : undefined;
    return line
      ? { lineId: line.id, direction: Number(direction), dateFrom, dateTo, weekdays: [...weekdays].sort(), times: t.times, publish: Number(publish.trim()), ...(fen !== undefined ? { price: fen } : {}), carId: carId ? Number(carId) : null, driverId: driverId ? Number(driverId) : null }
      : null;
  }

  return (
    <ScreenSection title="新增班次">
      <div className="max-w-3xl rounded border border-gray-200 bg-white p-4 sm:p-6" onKeyDown={onKeyDown}>
        <h3 className="mb-1 text-base font-medium text-gray-900">批量排班</h3>
        <p className="mb-4 text-sm text-gray-600">Enter 检查冲突（不保存）；确认无冲突后 Ctrl+Enter 保存全部班次；Esc 返回。</p>
        <FormError>{errors['']}</FormError>
        {!canSave && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：没有编辑班次的权限。</p>}
        <div className="mb-3">
          <PinyinPicker
            ref={picker}
            label={line ? `线路：${line.lineNo} ${line.name}` : '线路（输入名称、拼音或首字母）'}
            items={lines.map((l) => ({ id: l.id, label: `${l.lineNo} ${l.name}`, hint: `${secondsToTime(l.departTime)}${l.returnDepartTime !== null ? ` / ${secondsToTime(l.returnDepartTime)}` : ''} · ${l.defaultSeats}座 · ${fenToYuan(l.price)}元${l.status === 0 ? ' · 草稿' : ''}` }))}
            onPick={(item) => {
              setLineId(item.id);
              edited();
            }}
            placeholder="如 D101 或 zjgk"
            help="Enter 选中"
          />
          {errors.lineId && <p className="mt-1 text-sm text-red-700">{errors.lineId}</p>}
        </div>
        {line?.direction === -1 && (
          <SelectField
            label="方向"
            labelWidth={96}
            value={direction}
            onChange={(e) => (setDirection(e.target.value), edited())}
            options={[
              { value: '0', label: `上行（早 ${secondsToTime(line.departTime)}）` },
              { value: '1', label: `下行（晚 ${line.returnDepartTime !== null ? secondsToTime(line.returnDepartTime) : ''}）` },
            ]}
          />
        )}
        <div className="mb-3 flex flex-wrap gap-2" role="group" aria-label="快捷日期">
          {quickRanges().map((r) => (
            <Button
              key={r.key}
              className="h-7"
              onClick={() => {
                setDateFrom(r.dateFrom);
                setDateTo(r.dateTo);
                setWeekdays([...r.weekdays]);
                edited();
              }}
            >
              {r.label}
            </Button>
          ))}
        </div>
        <Field labelWidth={96} label="开始日期" required type="date" value={dateFrom} onChange={(e) => (setDateFrom(e.target.value), edited())} error={errors.dateFrom} />
        <Field labelWidth={96} label="结束日期" required type="date" value={dateTo} onChange={(e) => (setDateTo(e.target.value), edited())} error={errors.dateTo} hint={`含当天，一次最多${CLASSES_MAX_DAYS}天`} />
        <fieldset className="mb-3 flex flex-wrap items-center gap-3 text-sm">
          <legend className="sr-only">星期</legend>
          <span className="w-24 text-gray-600">星期</span>
          {WEEKDAYS.map((w, i) => (
            <label key={w} className="inline-flex items-center gap-1">
              <input type="checkbox" checked={weekdays.includes(i + 1)} onChange={(e) => (setWeekdays((d) => (e.target.checked ? [...d, i + 1] : d.filter((x) => x !== i + 1))), edited())} />周{w}
            </label>
          ))}
          {errors.weekdays && <span className="text-red-700">{errors.weekdays}</span>}
        </fieldset>
        <Field labelWidth={96} label="发车时刻" required value={times} onChange={(e) => (setTimes(e.target.value), edited())} error={errors.times} placeholder="07:30,08:00" hint="多个时刻用逗号或空格分隔" />
        <Field labelWidth={96} label="座位数" required inputMode="numeric" maxLength={2} value={publish} onChange={(e) => (setPublish(e.target.value), edited())} error={errors.publish} hint="每个班次发行的座位，1–80" />
        <Field labelWidth={96} label="票价（元）" inputMode="decimal" value={price} onChange={(e) => (setPrice(e.target.value), edited())} error={errors.price} placeholder={line ? fenToYuan(line.price) : ''} hint="留空为线路票价" />
        <SelectField labelWidth={96} label="车辆" value={carId} onChange={(e) => (setCarId(e.target.value), edited())} placeholder="暂不排车" options={cars.map((c) => ({ value: String(c.id), label: `${c.plateNo}（${c.seats}座${c.status === 2 ? '，维修中' : ''}）` }))} />
        <SelectField labelWidth={96} label="司机" value={driverId} onChange={(e) => (setDriverId(e.target.value), edited())} placeholder="暂不排司机" options={drivers.map((d) => ({ value: String(d.id), label: d.name }))} />

        {checked && !stale && (
          <section aria-label="检查结果" className="mt-4 rounded border border-gray-200 p-3" aria-live="polite">
            {checked.conflicts.length === 0 ? (
              <p className="text-sm text-green-800">共 {checked.slots} 个班次，无冲突。按 Ctrl+Enter 保存。</p>
            ) : (
              <>
                <p className="mb-2 text-sm text-red-700" role="alert">
                  共 {checked.slots} 个班次，其中 {checked.conflicts.length} 个有冲突，请调整后再检查：
                </p>
                <ul className="max-h-64 overflow-auto text-sm text-gray-800">
                  {checked.conflicts.map((c) => (
                    <li key={`${c.date} ${c.time}`} className="border-t border-gray-100 py-1">
                      <span className="mr-2 tabular-nums">
                        {c.date} {c.time}
                      </span>
                      {c.reasons.join('；')}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
        )}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => navigate(classesPath())} hotkey="Esc">
            取消
          </Button>
          <Button onClick={dryRun} disabled={busy} hotkey="Enter">
            {busy && !checked ? '检查中…' : '检查冲突'}
          </Button>
          {canSave && (
            <Button variant="primary" onClick={confirm} disabled={busy || !checked || stale || checked.conflicts.length > 0} hotkey="Ctrl+Enter">
              确认排班
            </Button>
          )}
        </div>
      </div>
    </ScreenSection>
  );
}
