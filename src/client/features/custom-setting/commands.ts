import { CUSTOM_SETTING_EDITOR, CUSTOM_SETTING_READ, CUSTOM_SETTING_SYNC, refundRuleList, refundRulePreview, refundRulePublish } from '../../../shared/api/custom-setting';
import { yuanToFen } from '../../../shared/domain/money';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { quoteLine } from './quote-line';

const GROUP = '定制公交设置';
const basePath = (action?: 'notice' | 'sync') => pagePath('customSetting', 'custom-base', action ? { action } : {});
const refundPath = (query?: { amount: string; minutes: string }) => pagePath('customSetting', 'refund-setting', query ? { action: 'preview', query } : {});
const yuan = (fen: number) => (fen / 100).toFixed(2).replace(/\.00$/, '');
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** 定制公交设置's palette commands (second wave §6's Palette row). */
export const customSettingCommands: readonly Command[] = [
  {
    // The answer in a toast at once, and the calculator on 退款设置 filled with it.
    id: 'customSetting.refund-preview',
    title: '退款试算',
    group: GROUP,
    keywords: ['退款', '试算', '手续费', 'tuikuan', 'shisuan'],
    permission: CUSTOM_SETTING_READ,
    page: refundPath(),
    args: [
      { name: 'amount', label: '金额（元）', kind: 'text', placeholder: '50', validate: (v) => (yuanToFen(v) === null ? '金额应为元，最多两位小数' : null) },
      { name: 'minutes', label: '距发车分钟', kind: 'text', placeholder: '90', validate: (v) => (/^-?\d{1,6}$/.test(v.trim()) ? null : '距发车分钟应为整数') },
    ],
    run: (ctx, a) => {
      const amount = yuanToFen(a.amount ?? '') ?? 0;
      const minutes = Number((a.minutes ?? '').trim());
      api
        .call(refundRulePreview, { query: { amount, minutesBefore: minutes } }, { silent: true })
        .then((q) => {
          toast.success(`${quoteLine(yuan(q.amount), q.minutesBefore, yuan(q.refund), q.refundable, q.fee ? yuan(q.fee) : null)}（${q.ruleId ? `规则 #${q.ruleId}` : '默认阶梯'}）`);
          ctx.navigate(refundPath({ amount: (a.amount ?? '').trim(), minutes: String(minutes) }));
        })
        .catch((err: unknown) => toast.error(message(err)));
    },
  },
  {
    // Choosing the draft is the confirmation: it takes effect now (the old one 已失效); a later time is 退款设置's dialog.
    id: 'customSetting.refund-publish',
    title: '发布退款规则',
    group: GROUP,
    keywords: ['发布', '退款', '规则', 'fabu', 'tuikuan'],
    permission: CUSTOM_SETTING_EDITOR,
    page: refundPath(),
    args: [
      {
        name: 'rule',
        label: '选择草稿（立即生效）',
        kind: 'choice',
        options: async () => {
          const list = await api.call(refundRuleList, { query: {} }, { silent: true });
          return list.content.filter((r) => r.status === 0).map((r) => ({ value: `${r.id}:${r.rowVersion}`, label: `草稿 #${r.id}${r.remark ? ` ${r.remark}` : ''}`, subtitle: r.districtName ?? '', keywords: [String(r.id), r.remark] }));
        },
      },
    ],
    run: (ctx, a) => {
      const [id, rowVersion] = (a.rule ?? '').split(':').map(Number);
      api
        .call(refundRulePublish, { body: { id: id!, rowVersion: rowVersion! } })
        .then((r) => {
          toast.success(`退款规则 #${r.id} 已生效`);
          ctx.changed(refundRulePublish);
          ctx.navigate(refundPath());
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  },
  {
    id: 'customSetting.edit-notice',
    title: '修改购票须知',
    group: GROUP,
    keywords: ['购票须知', '须知', '定制公交', 'goupiao', 'xuzhi'],
    permission: CUSTOM_SETTING_EDITOR,
    page: basePath(),
    run: (ctx) => ctx.navigate(basePath('notice')),
  },
  {
    id: 'customSetting.sync',
    title: '同步设置到区域',
    group: GROUP,
    keywords: ['同步', '跨区', '区域', '定制公交', 'tongbu', 'kuaqu'],
    permission: CUSTOM_SETTING_SYNC,
    page: basePath(),
    run: (ctx) => ctx.navigate(basePath('sync')),
  },
];
