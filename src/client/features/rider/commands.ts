import { card } from '../../../shared/api';
import { CARD_NO, cardCategoryLabel, cardStateLabel } from '../../../shared/api/card';
import { CARD_VIEW, type CardViewAction, cardViewPath } from '../../business/desk/card-no-link';
import { type EntityRecord, type EntitySource, RIDER_QUERY_MIN } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { maskCitizenId, maskPhone } from '../../../shared/domain/mask';
import { pagePath } from '../../../shared/modules';
import { api } from '../../lib/api-client';
import { handOff } from '../../business/desk/lookup-handoff';
import { recordActions } from '../../components/resource/row-action';
import { cardActions } from './card-actions';
import { cardViewScreen } from './card-view-chunk';


/**
 * Where a typed number opens: a card number in the address, a phone or citizen id through memory;
 * `then` is the card view's action to run once the card is there.
 */
export function openLookup(navigate: (path: string) => void, q: string, then?: CardViewAction): void {
  const v = q.replace(/[\s-]/g, '');
  if (CARD_NO.test(v)) return navigate(cardViewPath(v, then));
  handOff(v, then);
  navigate(CARD_VIEW);
}

const LOOKUP_ARG = { name: 'q', label: '卡号、身份证号或手机号', kind: 'text', placeholder: '3101000020000012' } as const;

export const riderCommands: Command[] = [
  {
    id: 'card.lookup',
    title: '查询卡片（卡号、身份证号或手机号）',
    group: '乘客与卡片',
    keywords: ['卡', '查卡', '身份证', '手机', 'card'],
    permission: card.cardLookup.permission,
    page: CARD_VIEW,
    args: [LOOKUP_ARG],
    run: (ctx, a) => openLookup(ctx.navigate, a.q ?? ''),
  },
  {
    id: 'rider.reveal',
    title: '查看实名信息（持卡人）',
    group: '乘客与卡片',
    keywords: ['实名', '身份证', 'reveal', 'shiming'],
    permission: card.riderReveal.permission,
    page: CARD_VIEW,
    args: [LOOKUP_ARG],
    run: (ctx, a) => openLookup(ctx.navigate, a.q ?? '', 'reveal'),
  },
  {
    id: 'rider.add',
    title: '新增乘客',
    group: '乘客与卡片',
    keywords: ['乘客', '新增', 'add rider'],
    permission: card.riderAdd.permission,
    page: pagePath('busUser', 'bus-user'),
    run: (ctx) => ctx.navigate(pagePath('busUser', 'bus-user', { action: 'add' })),
  },
  {
    id: 'rider.export',
    title: '导出乘客用户',
    group: '乘客与卡片',
    keywords: ['导出', 'Excel', 'export riders'],
    permission: card.riderExport.permission,
    page: pagePath('busUser', 'bus-user'),
    run: (ctx) => ctx.navigate(pagePath('busUser', 'bus-user', { action: 'export' })),
  },
  {
    id: 'rider.abnormal',
    title: '处理异常用户',
    group: '乘客与卡片',
    keywords: ['异常', 'ycOrder'],
    permission: card.riderResolve.permission,
    page: pagePath('busUser', 'yc-user'),
    run: (ctx) => ctx.navigate(pagePath('busUser', 'yc-user')),
  },
];

const cardLabel = (c: { state: number; category: number }) => `${cardCategoryLabel(c.category)} · ${cardStateLabel(c.state)}`;

/**
 * 乘客与卡片: a typed card number, citizen id or phone is offered as a lookup row (the palette checks
 * citizen ids itself), and `@` asks the server (the palette debounces and drops stale answers).
 */
export const riderSources: EntitySource[] = [
  {
    id: 'cards',
    group: '乘客与卡片',
    permission: card.cardLookup.permission,
    page: CARD_VIEW,
    prefix: '@',
    // card/lookup is a POST: the typed number travels in its body.
    takesNumbers: true,
    lookup(s): EntityRecord | null {
      if (s.kind === 'card' || s.kind === 'citizen-id' || s.kind === 'phone') void cardViewScreen.preload();
      if (s.kind === 'card' && CARD_NO.test(s.value)) return { key: `card:${s.value}`, title: `查询卡片 ${s.value}`, path: cardViewPath(s.value), actions: recordActions(cardActions, { cardNo: s.value }) };
      // Keys and titles are kept in the recents (local storage): masked, never the whole number.
      if (s.kind === 'citizen-id') return { key: `citizen:${maskCitizenId(s.value)}`, title: `按身份证号查询 ${maskCitizenId(s.value)}`, path: CARD_VIEW, onOpen: () => handOff(s.value) };
      if (s.kind === 'phone') return { key: `phone:${maskPhone(s.value)}`, title: `按手机号查询 ${maskPhone(s.value)}`, path: CARD_VIEW, onOpen: () => handOff(s.value) };
      return null;
    },
    async query(q) {
      const v = q.replace(/[\s-]/g, '');
      if (v.length < RIDER_QUERY_MIN) return [];
      const res = await api.call(card.cardLookup, { body: { q: v } }, { silent: true });
      return [
        ...res.cards.map((c) => ({
          key: `card:${c.cardNo}`,
          title: c.cardNo,
          subtitle: `${cardLabel(c)}${c.holder ? ` · ${c.holder.name ?? ''} ${c.holder.phone}` : ''}`,
          path: cardViewPath(c.cardNo),
          actions: recordActions(cardActions, { cardNo: c.cardNo }),
        })),
        ...res.riders.map((r) => ({ key: `rider:${r.id}`, title: `${r.name ?? '未实名'} ${r.phone}`, subtitle: `${r.cards} 张卡 · ${r.districtName ?? ''}`, path: CARD_VIEW, onOpen: () => handOff(v) })),
      ];
    },
  },
];
