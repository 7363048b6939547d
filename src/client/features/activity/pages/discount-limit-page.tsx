/** 优惠限制 (DiscountLimit): SKELETON — replaced by the page's build this session. */
export function DiscountLimitPage() {
  return <p>优惠限制建设中</p>;
}
