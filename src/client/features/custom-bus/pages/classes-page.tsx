/** 班次管理 (ListClasses): SKELETON — replaced by the page's build this session. */
export function ClassesPage() {
  return <p>班次管理建设中</p>;
}
