/** 定制线路轨迹 (CustomLinePath): SKELETON — replaced by the page's build this session. */
export function CustomLinePathPage() {
  return <p>定制线路轨迹建设中</p>;
}
