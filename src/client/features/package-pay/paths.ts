import { createHandOff } from '../../business/desk/lookup-handoff';
import { pagePath } from '../../../shared/modules';

/** A rider's phone from the palette to 套餐订单's phone filter, through memory (never the address). */
export const orderPhone = createHandOff();

export const orderListPath = (orderNo?: string) => pagePath('packagePay', 'package-order', orderNo ? { query: { orderNo } } : {});
export const orderDetailPath = (id: number, refund = false) => pagePath('packagePay', 'package-order-detail', { query: { id }, ...(refund ? { action: 'refund' as const } : {}) });
/** The detail found by the order's number (the palette's pasted `PK…`): the page looks the id up. */
export const orderDetailByNoPath = (orderNo: string, refund = false) => pagePath('packagePay', 'package-order-detail', { query: { orderNo }, ...(refund ? { action: 'refund' as const } : {}) });
export const editPath = (id?: number) => pagePath('packagePay', 'add-package', id ? { query: { id } } : {});
export const managePath = (status?: number) => pagePath('packagePay', 'package-manage', status === undefined ? {} : { query: { status } });
