/** 新增班次 (AddClasses): SKELETON — replaced by the page's build this session. */
export function ClassesAddPage() {
  return <p>新增班次建设中</p>;
}
