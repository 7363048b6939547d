/** 定制站点 (ListCustomStation): SKELETON — replaced by the page's build this session. */
export function CustomStationPage() {
  return <p>定制站点建设中</p>;
}
