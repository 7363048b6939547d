/** 协议设置 (AgreementSetting): SKELETON — replaced by the page's build this session. */
export function AgreementSettingPage() {
  return <p>协议设置建设中</p>;
}
