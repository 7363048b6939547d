/** 验卡记录 (ListCardVerify): SKELETON — replaced by the page's build this session. */
export function CardVerifyPage() {
  return <p>验卡记录建设中</p>;
}
