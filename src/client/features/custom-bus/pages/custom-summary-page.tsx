/** 定制汇总 (CustomSummary): SKELETON — replaced by the page's build this session. */
export function CustomSummaryPage() {
  return <p>定制汇总建设中</p>;
}
