import { discount } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import * as service from './service';

/** 特殊码管理: discount-card orders and their refund. */
export const discountServer: ServerModule = {
  id: 'specialCode',
  tables: [t.discountOrders, t.refunds],
  routes(b, deps) {
    b.bind(discount.discountOrderPage, ({ auth, query }) => service.pageOrders(deps, auth, query));
    b.bind(discount.discountOrderTotal, ({ auth, query }) => service.orderTotals(deps, auth, query));
    b.bind(discount.discountOrderMsg, ({ auth, query }) => service.orderMsg(deps, auth, query.id));
    b.bind(discount.discountOrderRefund, ({ auth, body }) => service.refundOrder(deps, auth, body));
  },
};
