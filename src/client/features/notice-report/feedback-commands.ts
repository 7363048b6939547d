import * as api from '../../../shared/api/feedback';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';

const GROUP = '公告与反馈';
const page = pagePath('noticeReport', 'feedback');

/**
 * 意见反馈's palette commands (second wave §2's Palette row): 处理反馈 ‹编号› opens the item on the page
 * (its reply, rides and cluster); 我的待处理反馈 and 超时反馈 are the list on those filters, soonest due first.
 */
export const feedbackCommands: readonly Command[] = [
  {
    id: 'feedback.queue',
    title: '待处理反馈',
    group: GROUP,
    keywords: ['待处理', '未处理', '反馈', '意见', '分诊', 'daichuli', 'fankui', 'yijian'],
    permission: api.FEEDBACK_READ,
    page,
    // The triage queue is daily work: a chord of its own (g y, 意见), as 可疑订单 has g q; g n is the menu's (公告管理).
    hotkey: 'g>y',
    run: (ctx) => ctx.navigate(pagePath('noticeReport', 'feedback', { action: 'triage', query: { status: 0, sort: 'dueAt,asc' } })),
  },
  {
    id: 'feedback.handle',
    title: '处理反馈',
    group: GROUP,
    keywords: ['处理', '反馈', '意见', '投诉', '回复', 'chuli', 'fankui', 'yijian', 'tousu'],
    permission: api.FEEDBACK_READ,
    page,
    args: [{ name: 'id', label: '反馈编号', kind: 'text', placeholder: '如 1024', validate: (v) => (/^#?\d{1,9}$/.test(v.trim()) ? null : '请输入反馈编号（数字）') }],
    run: (ctx, a) => ctx.navigate(pagePath('noticeReport', 'feedback', { action: 'open', query: { status: 0, sort: 'dueAt,asc', id: (a.id ?? '').trim().replace(/^#/, '') } })),
  },
  {
    id: 'feedback.mine',
    title: '我的待处理反馈',
    group: GROUP,
    keywords: ['我的', '待处理', '反馈', '处理中', 'wode', 'daichuli', 'fankui'],
    permission: api.FEEDBACK_HANDLER,
    page,
    run: (ctx) => ctx.navigate(pagePath('noticeReport', 'feedback', { query: { mine: 'true', status: 3, sort: 'dueAt,asc' } })),
  },
  {
    id: 'feedback.overdue',
    title: '超时反馈',
    group: GROUP,
    keywords: ['超时', '逾期', '反馈', '未回复', 'chaoshi', 'yuqi', 'fankui'],
    permission: api.FEEDBACK_READ,
    page,
    run: (ctx) => ctx.navigate(pagePath('noticeReport', 'feedback', { query: { overdue: 'true', sort: 'dueAt,asc' } })),
  },
];
