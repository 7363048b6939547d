import { CUSTOM_CLASSES_EDITOR, CUSTOM_DISPATCHER, CUSTOM_READ } from '../../../shared/api/custom-bus/buttons';
import { classesAssign, classesOptions, classesPage, secondsToTime } from '../../../shared/api/custom-bus/classes';
import { addDays, shanghaiDate } from '../../../shared/domain/time';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { classesAddPath, classesPath, parseTimes, quickRanges } from './classes-paths';

const GROUP = '定制公交';

const options = () => api.call(classesOptions, {}, { silent: true });

/** The area's lines as palette choices (the palette ranks them by pinyin and initials). */
const lineChoices = async () =>
  (await options()).lines.map((l) => ({
    value: String(l.id),
    label: `${l.lineNo} ${l.name}`,
    subtitle: `${secondsToTime(l.departTime)}${l.returnDepartTime !== null ? ` / ${secondsToTime(l.returnDepartTime)}` : ''} · ${l.defaultSeats}座`,
    keywords: [l.lineNo, l.name],
  }));

/** The classes of the next 7 days still to run, those without a car or a driver first. */
const upcomingClasses = async () => {
  const today = shanghaiDate(new Date());
  const page = await api.call(classesPage, { query: { page: 0, size: 500, dateFrom: today, dateTo: addDays(today, 6) } }, { silent: true });
  return page.content
    .filter((c) => c.status <= 2)
    .sort((a, b) => Number(!!(a.carId && a.driverId)) - Number(!!(b.carId && b.driverId)) || a.departAt.localeCompare(b.departAt))
    .map((c) => ({
      value: `${c.id}:${c.rowVersion}`,
      label: `${c.departDate} ${c.time} ${c.lineName}`,
      subtitle: `${c.plateNo ?? '未排车'} · ${c.driverName ?? '未排司机'}`,
      keywords: [c.lineNo, c.lineName, c.departDate],
    }));
};

/** What a person calls each quick range when typing it whole (下周 is 下周一至五). */
const RANGE_WORDS: Record<string, string> = { 下周: 'next-week', 下周一至五: 'next-week', 本周: 'this-week', 本周剩余工作日: 'this-week', 未来两周: 'two-weeks', 未来两周工作日: 'two-weeks', 下月: 'next-month', 下月工作日: 'next-month' };
const TIME_LIST = /^\d{1,2}[:：]\d{2}([,，、]\d{1,2}[:：]\d{2})*$/;

/**
 * 批量排班 typed whole, its data only: `zjgk 下周一至五 07:30,08:00 45` (any order; the seats may be
 * left out, 45座 also reads). A range and at least one time make it this command's; what is left
 * names the line. Enter on the row opens 新增班次 with the dry run already run, Ctrl+Enter saves.
 */
export function batchFromQuery(text: string): ReturnType<NonNullable<Command['fromQuery']>> {
  let range: string | undefined;
  let seats: string | undefined;
  const times: string[] = [];
  const rest: string[] = [];
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const seat = /^(\d{1,2})座?$/.exec(token);
    if (RANGE_WORDS[token] && !range) range = RANGE_WORDS[token];
    else if (TIME_LIST.test(token)) times.push(token);
    else if (seat && !seats && Number(seat[1]) >= 1 && Number(seat[1]) <= 80) seats = seat[1];
    else rest.push(token);
  }
  const parsed = parseTimes(times.join(','));
  const r = quickRanges().find((x) => x.key === range);
  if (!r || !parsed.times.length || parsed.bad) return null;
  const values: Record<string, string> = { range: r.key, times: parsed.times.join(','), ...(seats ? { seats } : {}) };
  return {
    values,
    rest: rest.join(' '),
    title: (line) => `${line.label} · ${r.label}（${r.dateFrom} 至 ${r.dateTo}）· ${parsed.times.join('、')} · ${seats ? `${seats}座` : '座位按线路默认'}`,
  };
}

export const classesCommands: readonly Command[] = [
  {
    // The keyboard task: Ctrl+K plpb → line by pinyin → 下周一至五 → 07:30,08:00 → 45 → the form's dry run → Ctrl+Enter.
    id: 'customClasses.batch',
    title: '批量排班',
    group: GROUP,
    keywords: ['批量排班', '新增班次', '排班', 'plpb', 'piliangpaiban', 'banci'],
    permission: CUSTOM_CLASSES_EDITOR,
    page: classesAddPath(),
    args: [
      { name: 'line', label: '选择线路', kind: 'choice', options: lineChoices },
      { name: 'range', label: '日期范围', kind: 'choice', options: () => quickRanges().map((r) => ({ value: r.key, label: r.label, subtitle: `${r.dateFrom} 至 ${r.dateTo}` })) },
      { name: 'times', label: '发车时刻', kind: 'text', placeholder: '07:30,08:00', validate: (v) => (parseTimes(v).bad ? `「${parseTimes(v).bad}」不是时刻，请写成 07:30,08:00` : parseTimes(v).times.length ? null : '请填写发车时刻') },
      { name: 'seats', label: '座位数', kind: 'text', placeholder: '45', validate: (v) => (/^\d{1,2}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 80 ? null : '座位数应在1–80之间') },
    ],
    fromQuery: batchFromQuery,
    run: (ctx, a) => {
      const r = quickRanges().find((x) => x.key === a.range) ?? quickRanges()[0];
      // Without seats (the one-line form may leave them out) the page takes the line's default.
      const seats = a.seats ? { publish: Number(a.seats) } : {};
      ctx.navigate(classesAddPath({ lineId: Number(a.line), dateFrom: r.dateFrom, dateTo: r.dateTo, weekdays: r.weekdays.join(','), times: parseTimes(a.times ?? '').times.join(','), ...seats, check: 1 }));
    },
  },
  {
    id: 'customClasses.assign',
    title: '排班',
    group: GROUP,
    keywords: ['排班', '排车', '派车', '司机', 'paiban'],
    permission: CUSTOM_DISPATCHER,
    page: classesPath(),
    args: [
      { name: 'cls', label: '选择班次（7天内，未排班的在前）', kind: 'choice', options: upcomingClasses },
      { name: 'car', label: '选择车辆', kind: 'choice', options: async () => (await options()).cars.map((c) => ({ value: String(c.id), label: c.plateNo, subtitle: `${c.seats}座${c.status === 2 ? ' · 维修中' : ''}` })) },
      { name: 'driver', label: '选择司机', kind: 'choice', options: async () => (await options()).drivers.map((d) => ({ value: String(d.id), label: d.name, subtitle: d.status === 2 ? '请假' : `#${d.id}` })) },
    ],
    run: (ctx, a) => {
      const [id, rowVersion] = (a.cls ?? '').split(':').map(Number);
      api
        .call(classesAssign, { body: { id: id!, carId: Number(a.car), driverId: Number(a.driver), rowVersion: rowVersion! } })
        .then((c) => {
          toast.success(`已排班「${c.lineName}」${c.departDate} ${c.time}：${c.plateNo ?? ''} · ${c.driverName ?? ''}`);
          ctx.changed(classesAssign);
          ctx.navigate(classesPath({ dateFrom: c.departDate, dateTo: c.departDate, lineId: c.lineId }));
        })
        // The refusal (时间冲突, 年检已过期…) is in the toast.
        .catch(() => undefined);
    },
  },
  {
    id: 'customClasses.today',
    title: '今日班次',
    group: GROUP,
    keywords: ['今日班次', '今天', '班次', 'jrbc', 'jinribanci'],
    permission: CUSTOM_READ,
    page: classesPath(),
    run: (ctx) => {
      const today = shanghaiDate(new Date());
      ctx.navigate(classesPath({ dateFrom: today, dateTo: today }));
    },
  },
];
