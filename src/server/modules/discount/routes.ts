import { discount } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import * as products from './products';
import { discountDemoSeed } from './seed';
import * as service from './service';

/** 特殊码管理: discount-card products, their orders and the refund. */
export const discountServer: ServerModule = {
  id: 'specialCode',
  seed: { dependsOn: ['busUser'], demo: discountDemoSeed },
  tables: [t.discountProducts, t.discountOrders, t.refunds],
  routes(b, deps) {
    b.bind(discount.discountOrderPage, ({ auth, query }) => service.pageOrders(deps, auth, query));
    b.bind(discount.discountOrderTotal, ({ auth, query }) => service.orderTotals(deps, auth, query));
    b.bind(discount.discountOrderMsg, ({ auth, query }) => service.orderMsg(deps, auth, query.id));
    b.bind(discount.discountOrderRefund, ({ auth, body, req }) => service.refundOrder(deps, auth, req.ip, body));
    b.bind(discount.discountOrderRefundRule, async () => service.refundRule(deps));
    b.bind(discount.countPage, ({ auth, query }) => service.countByProduct(deps, auth, query));
    b.bind(discount.countTotal, ({ auth, query }) => service.countTotals(deps, auth, query));
    b.bind(discount.downloadTotal, ({ auth, query, reply }) => service.downloadTotals(deps, auth, query, reply));
    b.bind(discount.downloadOrder, ({ auth, query, reply }) => service.downloadOrders(deps, auth, query, reply));
    b.bind(discount.productPage, ({ auth, query }) => products.pageProducts(deps, auth, query));
    b.bind(discount.productById, ({ auth, query }) => products.productById(deps, auth, query.id));
    b.bind(discount.productTotal, ({ auth, query }) => products.productTotals(deps, auth, query));
    b.bind(discount.productStatus, ({ auth, query }) => products.setStatus(deps, auth, query));
    b.bind(discount.productSave, ({ auth, body }) => products.saveProduct(deps, auth, body));
    b.bind(discount.productDelete, ({ auth, query }) => products.deleteProduct(deps, auth, query.id));
  },
};
