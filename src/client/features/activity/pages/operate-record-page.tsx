/** 操作记录 (ListOperateRecord): SKELETON — replaced by the page's build this session. */
export function OperateRecordPage() {
  return <p>操作记录建设中</p>;
}
