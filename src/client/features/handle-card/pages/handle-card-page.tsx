/** 办卡申请 (ListHandleCard): SKELETON — replaced by the page's build this session. */
export function HandleCardPage() {
  return <p>办卡申请建设中</p>;
}
