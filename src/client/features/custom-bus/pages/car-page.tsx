/** 车辆管理 (ListCar): SKELETON — replaced by the page's build this session. */
export function CarPage() {
  return <p>车辆管理建设中</p>;
}
