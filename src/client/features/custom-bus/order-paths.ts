import { createHandOff } from '../../business/desk/lookup-handoff';
import { pagePath } from '../../../shared/modules';

/** A rider's phone from the palette to 订单记录's phone filter, through memory (never the address). */
export const customOrderPhone = createHandOff();

export const customOrderListPath = (orderNo?: string) => pagePath('customBus', 'order-record', orderNo ? { query: { orderNo } } : {});
export const customOrderDetailPath = (id: number, refund = false) => pagePath('customBus', 'order-detail', { query: { id }, ...(refund ? { action: 'refund' as const } : {}) });
/** The detail found by the order's number (the palette's pasted `CB…`): the page looks the id up. */
export const customOrderDetailByNoPath = (orderNo: string, refund = false) => pagePath('customBus', 'order-detail', { query: { orderNo }, ...(refund ? { action: 'refund' as const } : {}) });
