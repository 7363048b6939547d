/** 办卡规则编辑 (HandleCardRuleEdit): SKELETON — replaced by the page's build this session. */
export function HandleCardRuleEditPage() {
  return <p>办卡规则编辑建设中</p>;
}
