/** 活动列表 (ListActivity): SKELETON — replaced by the page's build this session. */
export function ActivityPage() {
  return <p>活动列表建设中</p>;
}
