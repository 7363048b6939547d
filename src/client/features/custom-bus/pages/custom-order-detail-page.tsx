/** 订单详情 (OrderDetail): SKELETON — replaced by the page's build this session. */
export function CustomOrderDetailPage() {
  return <p>订单详情建设中</p>;
}
