/** 定制记录 (ListCustomRecord): SKELETON — replaced by the page's build this session. */
export function DemandRecordPage() {
  return <p>定制记录建设中</p>;
}
