import { pagePath } from '../../../shared/modules';
import { HANDLE_CARD_AUDITOR, HANDLE_CARD_FACTORY_EXPORTER, HANDLE_CARD_READ, HANDLE_CARD_SHIPPER } from '../../../shared/api/handle-card';
import type { Command } from '../../commands/types';
import { applyListPath, applyPhone } from './apply-paths';

const GROUP = '线上办卡';
const isPhone = (v: string) => /^1\d{10}$/.test(v.replace(/[\s-]/g, ''));
const listAction = (action: 'next' | 'batch-approve' | 'factory' | 'ship' | 'find', query: Record<string, string> = {}) => pagePath('handleCard', 'handle-card-list', { action, query });

/** 办卡申请's palette commands (second wave §10's Palette row). */
export const handleApplyCommands: readonly Command[] = [
  {
    id: 'handleCard.next',
    title: '下一条办卡审核',
    group: GROUP,
    keywords: ['下一条', '办卡', '审核', '队列', 'xiayitiao', 'banka', 'shenhe'],
    permission: HANDLE_CARD_AUDITOR,
    page: applyListPath(),
    // The queue is daily work: a chord of its own (g l, 办理), as 可疑订单 has g q; g h is the menu's.
    hotkey: 'g>l',
    // The page opens the queue; Enter there takes the next 待审核 application.
    run: (ctx) => ctx.navigate(listAction('next')),
  },
  {
    // A phone goes to the list through memory (never the address); an application number opens its detail.
    id: 'handleCard.find',
    title: '查办卡申请',
    group: GROUP,
    keywords: ['办卡', '申请', '查询', '手机号', 'banka', 'shenqing', 'cha'],
    permission: HANDLE_CARD_READ,
    page: applyListPath(),
    args: [{ name: 'q', label: '申请号或手机号', kind: 'text', placeholder: 'BK2026… 或 11 位手机号', validate: (v) => (!v.trim() ? '请输入申请号或手机号' : v.trim().length > 40 ? '申请号不能超过40个字符' : null) }],
    run: (ctx, a) => {
      const q = (a.q ?? '').trim();
      if (isPhone(q)) {
        applyPhone.handOff(q.replace(/[\s-]/g, ''));
        ctx.navigate(applyListPath());
      } else ctx.navigate(listAction('find', { applyNo: q }));
    },
  },
  {
    id: 'handleCard.batchApprove',
    title: '批量通过预检全绿',
    group: GROUP,
    keywords: ['批量', '通过', '预检', '全绿', '办卡', 'piliang', 'tongguo', 'yujian'],
    permission: HANDLE_CARD_AUDITOR,
    page: applyListPath(),
    run: (ctx) => ctx.navigate(listAction('batch-approve')),
  },
  {
    id: 'handleCard.factoryExport',
    title: '导出制卡文件',
    group: GROUP,
    keywords: ['导出', '制卡', '文件', '制卡厂', 'daochu', 'zhika'],
    permission: HANDLE_CARD_FACTORY_EXPORTER,
    page: applyListPath(),
    args: [{ name: 'day', label: '制卡日期（YYYY-MM-DD，空为今天）', kind: 'text', placeholder: '2026-12-07', optional: true, validate: (v) => (!v.trim() || /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? null : '制卡日期应为 YYYY-MM-DD') }],
    run: (ctx, a) => ctx.navigate(listAction('factory', a.day?.trim() ? { batchDate: a.day.trim() } : {})),
  },
  {
    id: 'handleCard.ship',
    title: '录入快递单号',
    group: GROUP,
    keywords: ['录入', '快递', '单号', '寄出', '办卡', 'luru', 'kuaidi', 'danhao'],
    permission: HANDLE_CARD_SHIPPER,
    page: applyListPath(),
    args: [
      { name: 'applyNo', label: '申请号', kind: 'text', placeholder: 'BK2026…', validate: (v) => (!v.trim() ? '请输入申请号' : v.trim().length > 40 ? '申请号不能超过40个字符' : null) },
      { name: 'trackingNo', label: '快递单号', kind: 'text', placeholder: 'SF…', validate: (v) => (/^[A-Za-z0-9]{1,30}$/.test(v.trim()) ? null : '快递单号应为30位以内的字母或数字') },
    ],
    run: (ctx, a) => ctx.navigate(listAction('ship', { applyNo: (a.applyNo ?? '').trim(), trackingNo: (a.trackingNo ?? '').trim() })),
  },
];
