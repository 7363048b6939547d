/**
 * A page the server's menu names but this console build has no screen for: after an upgrade the
 * server may be newer than the open console. It says so and how to fix it, never shows made-up data.
 */
export function UnknownScreen({ title, menuTitle }: { title: string; menuTitle: string }) {
  return (
    <section className="p-6">
      <h2 className="mb-3 text-lg font-medium text-gray-800">{title}</h2>
      <div className="rounded border border-dashed border-gray-300 bg-white p-6 text-sm leading-7 text-gray-600">
        <p>当前控制台版本没有「{menuTitle} · {title}」页面。</p>
        <p>系统可能刚刚升级，请刷新浏览器后再试。</p>
      </div>
    </section>
  );
}
