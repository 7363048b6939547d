/** 新增定制线路 (AddCustomLine): SKELETON — replaced by the page's build this session. */
export function CustomLineEditPage() {
  return <p>新增定制线路建设中</p>;
}
