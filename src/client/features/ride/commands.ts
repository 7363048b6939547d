import { ridership } from '../../../shared/api';
import { CARD_NO } from '../../../shared/api/card';
import { pagePath } from '../../../shared/modules';
import type { EntitySource } from '../../commands/entity-source';
import type { ArgOption, Command } from '../../commands/types';
import { recordActions } from '../../components/resource/row-action';
import { api } from '../../lib/api-client';
import { ridershipLineActions } from './line-actions';
import { cardRidesPath, lineRidershipPath, normaliseCardNo } from './paths';

/** The area's lines with ridership, as palette choices: 49路, or its code. */
async function lineOptions(): Promise<ArgOption[]> {
  try {
    const lines = await api.call(ridership.ridershipLineCodes, {}, { silent: true });
    return lines.map((l) => ({ value: l.lineCode, label: l.lineName, subtitle: `编号 ${l.lineCode}`, keywords: [l.lineCode] }));
  } catch {
    // No list (a lost connection): the step shows no choices rather than an unhandled failure.
    return [];
  }
}

const ALL_LINES = '*';

export const rideCommands: Command[] = [
  {
    id: 'ride.export-ridership',
    title: '导出每日客流',
    group: '乘车记录管理',
    keywords: ['导出', '客流', 'excel', 'export', 'daochu', 'keliu', '报表'],
    permission: ridership.ridershipExport.permission,
    page: pagePath('order', 'order-total'),
    args: [
      { name: 'lineCode', label: '选择线路', kind: 'choice', options: async () => [{ value: ALL_LINES, label: '全部线路', keywords: ['all', 'quanbu'] }, ...(await lineOptions())] },
      // Fetched with the step, as the queue's client is with the run: the shell carries neither.
      { name: 'range', label: '选择日期范围', kind: 'choice', options: async () => (await import('./export-ranges')).exportRanges() },
    ],
    // A task of the download centre: the toast says it is queued, and again (with 下载) when it is ready.
    run: async (_ctx, a) => {
      const [startDate = '', endDate = ''] = (a.range ?? '').split('~');
      const { startExportTask } = await import('../../components/use-export-task');
      await startExportTask(ridership.ridershipExport, { startDate, endDate, lineCode: a.lineCode && a.lineCode !== ALL_LINES ? a.lineCode : undefined }).catch(() => undefined);
    },
  },
  {
    id: 'ride.card-records',
    title: '查看卡的乘车记录',
    group: '乘车记录管理',
    keywords: ['乘车记录', '刷卡记录', '卡号', '乘车', 'ride records', 'shuaka'],
    permission: ridership.recordList.permission,
    page: pagePath('order', 'order-list'),
    // The palette checks the number before the command runs, in the contract's own words.
    args: [{ name: 'cardNo', label: '卡号', kind: 'text', placeholder: '3101000020000012', validate: (v) => (CARD_NO.test(normaliseCardNo(v)) ? null : '卡号应为16位数字') }],
    run: (ctx, a) => ctx.navigate(cardRidesPath(normaliseCardNo(a.cardNo ?? ''))),
  },
  {
    id: 'ride.line-ridership',
    title: '查看线路客流',
    group: '乘车记录管理',
    keywords: ['客流', '乘车统计', '线路', '人次', 'ridership', 'keliu'],
    permission: ridership.ridershipTotal.permission,
    page: pagePath('order', 'order-total'),
    args: [{ name: 'lineCode', label: '选择线路', kind: 'choice', options: lineOptions }],
    run: (ctx, a) => ctx.navigate(lineRidershipPath(a.lineCode ?? '')),
  },
];

/**
 * The area's lines as ridership records (`#`, and in the default mode): Enter opens the line's
 * 乘车统计; Alt+E exports its last month; a month typed beside it (`2026-10 10路`) that month's file.
 */
export const rideSources: EntitySource[] = [
  {
    id: 'ridership-lines',
    group: '线路客流',
    permission: ridership.ridershipTotal.permission,
    page: pagePath('order', 'order-total'),
    prefix: '#',
    async load() {
      const lines = await api.call(ridership.ridershipLineCodes, {}, { silent: true });
      return lines.map((l) => ({
        key: `ridership-line:${l.lineCode}`,
        title: l.lineName,
        subtitle: `线路客流 · 编号 ${l.lineCode}`,
        keywords: [l.lineCode],
        path: lineRidershipPath(l.lineCode),
        actions: recordActions(ridershipLineActions, l),
      }));
    },
  },
];
