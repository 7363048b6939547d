/** 基础设置 (CustomBase): SKELETON — replaced by the page's build this session. */
export function CustomBasePage() {
  return <p>基础设置建设中</p>;
}
