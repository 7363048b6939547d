import * as api from '../../../shared/api/card-verify';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';

const GROUP = '线上验卡';
const list = (opts: { action?: 'next' | 'batch' | 'radar' | 'export'; query?: Record<string, string> } = {}) => pagePath('cardVerify', 'card-verify-list', opts);

/** 线上验卡's palette commands (second wave §4's Palette row). */
export const cardVerifyCommands: readonly Command[] = [
  {
    id: 'cardVerify.next',
    title: '审核下一条验卡',
    group: GROUP,
    keywords: ['审核', '验卡', '下一条', '队列', 'shenhe', 'yanka'],
    permission: api.CARD_VERIFY_AUDITOR,
    page: list(),
    // The queue is daily work: a chord of its own (g j, 检), as 可疑订单 has g q; g v is the menu's.
    hotkey: 'g>j',
    // The page opens the queue; Enter there takes the next pending application.
    run: (ctx) => ctx.navigate(list({ action: 'next' })),
  },
  {
    id: 'cardVerify.find',
    title: '查验卡',
    group: GROUP,
    keywords: ['验卡', '申请号', '卡号', 'chayanka', 'yanka'],
    permission: api.CARD_VERIFY_READ,
    page: list(),
    args: [{ name: 'q', label: '卡号或申请号', kind: 'text', placeholder: '16位卡号 或 YZ开头的申请号', validate: (v) => (v.trim() ? (v.trim().length > 40 ? '不能超过40个字符' : null) : '请输入卡号或申请号') }],
    run: (ctx, a) => {
      const q = (a.q ?? '').trim();
      ctx.navigate(list({ query: /^\d{16}$/.test(q) ? { cardNo: q } : { applyNo: q.toUpperCase() } }));
    },
  },
  {
    id: 'cardVerify.batch',
    title: '批量通过自动核验',
    group: GROUP,
    keywords: ['批量', '通过', '自动核验', '验卡', 'piliang'],
    permission: api.CARD_VERIFY_AUDITOR,
    page: list(),
    run: (ctx) => ctx.navigate(list({ action: 'batch' })),
  },
  {
    id: 'cardVerify.radar',
    title: '验卡到期提醒',
    group: GROUP,
    keywords: ['到期', '提醒', '雷达', '验卡', 'daoqi', 'tixing'],
    permission: api.CARD_VERIFY_READ,
    page: list(),
    args: [{ name: 'days', label: '近N天', kind: 'text', placeholder: '30', validate: (v) => (!v.trim() || (/^\d{1,2}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 90) ? null : '天数应为1–90') }],
    run: (ctx, a) => ctx.navigate(list({ action: 'radar', query: { days: (a.days ?? '').trim() || '90' } })),
  },
  {
    id: 'cardVerify.export',
    title: '导出验卡记录（Excel）',
    group: GROUP,
    keywords: ['导出', '验卡', 'excel', 'daochu'],
    permission: api.verifyExport.permission,
    page: list(),
    run: (ctx) => ctx.navigate(list({ action: 'export' })),
  },
  {
    id: 'cardVerify.config',
    title: '验卡配置',
    group: GROUP,
    keywords: ['验卡', '配置', '设置', 'peizhi'],
    permission: api.CARD_VERIFY_READ,
    page: pagePath('cardVerify', 'card-verify-config'),
    run: (ctx) => ctx.navigate(pagePath('cardVerify', 'card-verify-config')),
  },
];
