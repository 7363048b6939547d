import { card } from '../../../shared/api';
import { CARD_CATEGORIES, CARD_STATES, type CardCategory, type CardState } from '../../../shared/api/card';
import type { EntityRecord, EntitySource } from '../../commands/entity-source';
import type { Command } from '../../commands/types';
import { maskCitizenId, maskPhone } from '../../../shared/domain/mask';
import { api } from '../../lib/api-client';
import { handOff } from '../../components/desk/lookup-handoff';

const CARD_VIEW = '/busUser/card';

/** Where a typed number opens: a card number in the address, a phone or citizen id through memory. */
export function openLookup(navigate: (path: string) => void, q: string): void {
  const v = q.replace(/[\s-]/g, '');
  if (/^\d{16}$/.test(v)) return navigate(`${CARD_VIEW}?no=${v}`);
  handOff(v);
  navigate(CARD_VIEW);
}

export const riderCommands: Command[] = [
  {
    id: 'card.lookup',
    title: '查询卡片（卡号、身份证号或手机号）',
    group: '乘客与卡片',
    keywords: ['卡', '查卡', '身份证', '手机', 'card'],
    permission: card.cardLookup.permission,
    args: [{ name: 'q', label: '卡号、身份证号或手机号', kind: 'text', placeholder: '3101000020000012' }],
    run: (ctx, a) => openLookup(ctx.navigate, a.q ?? ''),
  },
];

const cardLabel = (c: { state: number; category: number }) => `${CARD_CATEGORIES[c.category as CardCategory] ?? ''} · ${CARD_STATES[c.state as CardState] ?? ''}`;

/**
 * 乘客与卡片: a typed card number, citizen id or phone is offered as a lookup row (the palette checks
 * citizen ids itself), and `@` asks the server (the palette debounces and drops stale answers).
 */
export const riderSources: EntitySource[] = [
  {
    id: 'cards',
    group: '乘客与卡片',
    permission: card.cardLookup.permission,
    prefix: '@',
    lookup(s): EntityRecord | null {
      if (s.kind === 'card' && /^\d{16}$/.test(s.value)) return { key: `card:${s.value}`, title: `查询卡片 ${s.value}`, path: `${CARD_VIEW}?no=${s.value}` };
      // Keys and titles are kept in the recents (local storage): masked, never the whole number.
      if (s.kind === 'citizen-id') return { key: `citizen:${maskCitizenId(s.value)}`, title: `按身份证号查询 ${maskCitizenId(s.value)}`, path: CARD_VIEW, onOpen: () => handOff(s.value) };
      if (s.kind === 'phone') return { key: `phone:${maskPhone(s.value)}`, title: `按手机号查询 ${maskPhone(s.value)}`, path: CARD_VIEW, onOpen: () => handOff(s.value) };
      return null;
    },
    async query(q) {
      const v = q.replace(/[\s-]/g, '');
      if (v.length < 4) return [];
      const res = await api.call(card.cardLookup, { body: { q: v } }, { silent: true });
      return [
        ...res.cards.map((c) => ({ key: `card:${c.cardNo}`, title: c.cardNo, subtitle: `${cardLabel(c)}${c.holder ? ` · ${c.holder.name ?? ''} ${c.holder.phone}` : ''}`, path: `${CARD_VIEW}?no=${c.cardNo}` })),
        ...res.riders.map((r) => ({ key: `rider:${r.id}`, title: `${r.name ?? '未实名'} ${r.phone}`, subtitle: `${r.cards} 张卡 · ${r.districtName ?? ''}`, path: CARD_VIEW, onOpen: () => handOff(v) })),
      ];
    },
  },
];
