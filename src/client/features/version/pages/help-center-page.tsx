/** 帮助中心 (HelpCenter): SKELETON — replaced by the page's build this session. */
export function HelpCenterPage() {
  return <p>帮助中心建设中</p>;
}
