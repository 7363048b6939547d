import { card, family, ridership } from '../../../shared/api';
import { packageOrderRefund } from '../../../shared/api/package-pay';
import { rechargeRequery } from '../../../shared/api/recharge';
import { orderRefund } from '../../../shared/api/wallet';
import { pagePath } from '../../../shared/modules';
import { cardViewPath } from '../../business/desk/card-no-link';
import { defineResource } from '../../components/resource/row-action';

/** A card as the palette knows it: the number typed or pasted, or a row of the card lookup's answer. */
export interface CardRecord {
  cardNo: string;
}

/**
 * What an agent does with a card, offered under the card wherever the palette finds it (a typed or
 * pasted number, `@`): each opens the page that does it, the card view's own dialog where there is one;
 * the money actions land on the card view, which knows the card's orders (one → its module's flow).
 */
export const cardActions = defineResource<CardRecord>()({
  name: (c) => `卡片 ${c.cardNo}`,
  id: (c) => c.cardNo,
  actions: [
    { id: 'view', label: '卡片详情', hotkey: 'v', primary: true, permission: card.cardLookup.permission, to: (c) => cardViewPath(c.cardNo) },
    { id: 'unbind', label: '解绑亲情卡', hotkey: 'u', permission: family.unBind.permission, to: (c) => cardViewPath(c.cardNo, 'unbind') },
    { id: 'rides', label: '查看乘车记录', hotkey: 'r', permission: ridership.recordList.permission, to: (c) => pagePath('order', 'order-list', { query: { cardNo: c.cardNo } }) },
    { id: 'reveal', label: '查看实名信息', hotkey: 'i', permission: card.riderReveal.permission, to: (c) => cardViewPath(c.cardNo, 'reveal') },
    // The money (issue 22): the card view finds the holder's order(s) and opens the owning module's flow.
    { id: 'walletRefund', label: '储值退款', hotkey: 'w', permission: orderRefund.permission, to: (c) => cardViewPath(c.cardNo, 'walletRefund') },
    { id: 'packageRefund', label: '套餐退款', hotkey: 't', permission: packageOrderRefund.permission, to: (c) => cardViewPath(c.cardNo, 'packageRefund') },
    { id: 'requery', label: '补查', hotkey: 'b', permission: rechargeRequery.permission, to: (c) => cardViewPath(c.cardNo, 'requery') },
  ],
});
