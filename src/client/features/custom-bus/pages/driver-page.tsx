/** 司机管理 (ListDriver): SKELETON — replaced by the page's build this session. */
export function DriverPage() {
  return <p>司机管理建设中</p>;
}
