/**
 * A menu whose module is not built yet opens this honest page (DESIGN §7): it says so, never shows
 * made-up numbers.
 */
export function PlannedScreen({ title, menuTitle }: { title: string; menuTitle: string }) {
  return (
    <section className="p-6">
      <h2 className="mb-3 text-lg font-medium text-gray-800">{title}</h2>
      <div className="rounded border border-dashed border-gray-300 bg-white p-6 text-sm leading-7 text-gray-600">
        <p>「{menuTitle} · {title}」模块尚未上线。</p>
        <p>该页面将在后续版本中提供，届时可在此查看和处理相关业务数据。</p>
      </div>
    </section>
  );
}
