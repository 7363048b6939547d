/** 新增车辆 (AddCar): SKELETON — replaced by the page's build this session. */
export function CarEditPage() {
  return <p>新增车辆建设中</p>;
}
