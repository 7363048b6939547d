import { family } from '../../../shared/api';
import { CARD_NO } from '../../../shared/api/card';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';
import { cardSubscriptionPath, normaliseCardNo } from './paths';

/** The palette checks the number before the command runs, in the contract's own words. */
const cardNoArg = { name: 'cardNo', label: '卡号', kind: 'text', placeholder: '3101000020000012', validate: (v: string) => (CARD_NO.test(normaliseCardNo(v)) ? null : '卡号应为16位数字') } as const;

export const familyCommands: Command[] = [
  {
    id: 'family.unbind',
    title: '解绑亲情卡',
    group: '亲情卡',
    keywords: ['亲情卡', '解绑', 'unbind'],
    permission: family.unBind.permission,
    page: pagePath('callingCard', 'family-bind'),
    args: [cardNoArg],
    // The bindings screen opens its 解绑 dialog (`?action=unbind`) with the list filtered to the card,
    // so the agent sees which binding goes; the citizen id and password are typed there, never here.
    run: (ctx, a) => ctx.navigate(pagePath('callingCard', 'family-bind', { action: 'unbind', query: { busCardNo: normaliseCardNo(a.cardNo ?? '') } })),
  },
  {
    id: 'family.check-card',
    title: '卡中心查卡（能否绑定亲情卡）',
    group: '亲情卡',
    keywords: ['亲情卡', '卡中心', '卡片订阅', '查卡'],
    permission: family.checkCard.permission,
    page: pagePath('callingCard', 'card-subscription'),
    args: [cardNoArg],
    run: (ctx, a) => ctx.navigate(cardSubscriptionPath(normaliseCardNo(a.cardNo ?? ''))),
  },
  {
    id: 'family.bind-export',
    title: '导出亲情卡绑定（Excel）',
    group: '亲情卡',
    keywords: ['亲情卡', '导出', 'excel'],
    permission: family.bindExport.permission,
    page: pagePath('callingCard', 'family-bind'),
    run: (ctx) => ctx.navigate(pagePath('callingCard', 'family-bind', { action: 'export' })),
  },
];
