/** 新增司机 (AddDriver): SKELETON — replaced by the page's build this session. */
export function DriverEditPage() {
  return <p>新增司机建设中</p>;
}
