/** 定制线路 (ListCustomLine): SKELETON — replaced by the page's build this session. */
export function CustomLinePage() {
  return <p>定制线路建设中</p>;
}
