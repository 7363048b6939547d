/**
 * The console shell (login, menus, layout) arrives with the next issue. Until then this page says
 * honestly what runs: the API on this same port, with the demo accounts the server printed.
 */
export function App() {
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-4 p-6 text-gray-800">
      <h1 className="text-2xl font-semibold text-brand">公交运营管理控制台</h1>
      <p>服务已启动。控制台界面正在建设中，接口已可使用：</p>
      <ul className="list-disc pl-6 text-sm leading-7">
        <li>
          登录：<code className="rounded bg-gray-100 px-1">POST /busline/api/authenticate</code>
        </li>
        <li>
          当前用户：<code className="rounded bg-gray-100 px-1">GET /busline/api/user/query/msg</code>
        </li>
        <li>
          菜单与按钮权限：<code className="rounded bg-gray-100 px-1">GET /busline/api/group/item/query</code>
        </li>
      </ul>
      <p className="text-sm text-gray-500">演示账号与密码见启动时终端输出及 README。</p>
    </main>
  );
}
