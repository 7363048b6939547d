/** 订单记录 (ListOrderRecord): SKELETON — replaced by the page's build this session. */
export function CustomOrderPage() {
  return <p>订单记录建设中</p>;
}
