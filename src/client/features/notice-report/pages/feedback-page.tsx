/** 意见反馈 (ListFeedback): SKELETON — replaced by the page's build this session. */
export function FeedbackPage() {
  return <p>意见反馈建设中</p>;
}
