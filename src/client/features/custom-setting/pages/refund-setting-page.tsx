/** 退款设置 (RefundSetting): SKELETON — replaced by the page's build this session. */
export function RefundSettingPage() {
  return <p>退款设置建设中</p>;
}
