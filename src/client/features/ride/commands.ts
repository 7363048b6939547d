import { ridership } from '../../../shared/api';
import { CARD_NO } from '../../../shared/api/card';
import { pagePath } from '../../../shared/modules';
import type { ArgOption, Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { cardRidesPath, lineRidershipPath, normaliseCardNo } from './paths';

/** The area's lines with ridership, as palette choices: 49路, or its code. */
async function lineOptions(): Promise<ArgOption[]> {
  try {
    const lines = await api.call(ridership.ridershipLineCodes, {}, { silent: true });
    return lines.map((l) => ({ value: l.lineCode, label: l.lineName, keywords: [l.lineCode] }));
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
