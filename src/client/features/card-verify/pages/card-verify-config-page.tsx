/** 验卡配置 (CardVerifyConfig): SKELETON — replaced by the page's build this session. */
export function CardVerifyConfigPage() {
  return <p>验卡配置建设中</p>;
}
