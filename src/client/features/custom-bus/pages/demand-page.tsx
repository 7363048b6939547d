/** 定制列表 (ListCustom): SKELETON — replaced by the page's build this session. */
export function DemandPage() {
  return <p>定制列表建设中</p>;
}
