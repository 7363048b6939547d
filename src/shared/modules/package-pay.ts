import { defineModule } from './define';

/** 套餐购买: ride packages, their orders and refunds, the daily summary and its 套餐体检. */
export const packagePayModule = defineModule({
  id: 'packagePay',
  menu: {
    id: 'packagePay',
    title: '套餐购买',
    icon: 'package',
    jumpKey: 'k',
    pages: [
      { key: 'package-summary', title: '套餐汇总', component: 'PackageSummary', actions: ['export'] },
      { key: 'package-manage', title: '套餐管理', component: 'ListPackage', actions: ['export'] },
      { key: 'package-order', title: '套餐订单', component: 'ListPackageOrder', actions: ['export'] },
      { key: 'package-agreement', title: '套餐协议', component: 'PackageAgreement' },
      { key: 'add-package', title: '新增套餐', component: 'AddPackage', hidden: true },
      { key: 'package-order-detail', title: '套餐订单详情', component: 'PackageOrderDetail', hidden: true, actions: ['refund'] },
    ],
  },
  operations: {
    PACKAGE_SAVE: '保存套餐',
    PACKAGE_PUBLISH: '上架套餐',
    PACKAGE_UNPUBLISH: '下架套餐',
    PACKAGE_DELETE: '删除套餐',
    PACKAGE_ORDER_REFUND: '套餐订单退款',
    PACKAGE_ORDER_EXPIRE: '套餐订单到期',
    PACKAGE_ORDER_CLOSE: '套餐订单超时关闭',
    PACKAGE_ORDER_LATE_PAY: '关闭后收到支付',
    PACKAGE_EXPORT: '导出套餐数据',
  },
});
