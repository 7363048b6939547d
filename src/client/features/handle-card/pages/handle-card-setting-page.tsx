/** 办卡设置 (HandleCardSetting): SKELETON — replaced by the page's build this session. */
export function HandleCardSettingPage() {
  return <p>办卡设置建设中</p>;
}
