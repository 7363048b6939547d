import { version } from '../../../../../package.json';

const PRODUCT = '公交运营管理控制台';

interface Hint {
  keys: string[];
  what: string;
}

/** The keys the console answers today; the command palette is planned and not listed until it ships. */
const HINT_GROUPS: { title: string; hints: Hint[] }[] = [
  {
    title: '列表',
    hints: [
      { keys: ['j', 'k'], what: '下一行 / 上一行（也可用 ↓ / ↑）' },
      { keys: ['Home', 'End'], what: '第一行 / 最后一行' },
      { keys: ['Enter'], what: '打开当前行（编辑或详情）' },
      { keys: ['PgDn', 'PgUp'], what: '下一页 / 上一页' },
      { keys: ['/'], what: '跳到第一个筛选框' },
      { keys: ['Enter'], what: '在筛选框中：查询' },
      { keys: ['↓', 'Esc'], what: '在筛选框中：回到列表' },
      { keys: ['Tab'], what: '当前行的操作按钮，再往后是分页' },
    ],
  },
  {
    title: '对话框',
    hints: [
      { keys: ['Enter'], what: '在输入框中：提交' },
      { keys: ['Ctrl+Enter'], what: '在任何位置提交（多行文本中也可以）' },
      { keys: ['Esc'], what: '关闭，不保存' },
    ],
  },
  {
    title: '权限树（角色组 · 编辑权限）',
    hints: [
      { keys: ['↓', '↑'], what: '下一项 / 上一项' },
      { keys: ['→', '←'], what: '展开 / 收起，或到上一级' },
      { keys: ['空格'], what: '勾选或取消，含全部下级' },
    ],
  },
  {
    title: '标签页（在“布局设置”中开启）',
    hints: [
      { keys: ['←', '→'], what: '切换标签' },
      { keys: ['Delete'], what: '关闭当前标签' },
    ],
  },
];

/** 关于 (About): what this console is, its version, and the keys it answers to. */
export function AboutPage() {
  return (
    <section aria-labelledby="about-title" className="p-3 sm:p-4">
      <div className="max-w-3xl rounded bg-white p-4 shadow-sm sm:p-6">
        <div className="mb-4 flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h2 id="about-title" className="text-lg font-semibold text-gray-800">
            {PRODUCT}
          </h2>
          <span className="rounded bg-gray-100 px-2 py-0.5 text-xs text-gray-600">版本 {version}</span>
        </div>
        <p className="mb-2 text-sm leading-7 text-gray-700">
          面向公交运营单位工作人员的后台管理控制台：管理站点、线路及线网版本，查询乘客、卡片与乘车记录，办理亲情卡和优惠卡业务，维护账号、角色组、区域与小程序协议，并查看系统日志与客流统计。
        </p>
        <p className="mb-2 text-sm leading-7 text-gray-700">
          控制台以键盘为先：常用操作无需鼠标即可完成。所有时间均按上海时间（Asia/Shanghai）显示；每项修改都记入系统日志。
        </p>
        <p className="mb-6 text-sm leading-7 text-gray-500">
          本版本已提供：账号列表、角色组、系统日志、区域管理、协议管理；其余模块尚未上线，打开时页面会如实说明。
        </p>
        <h3 className="mb-3 text-base font-medium text-gray-800">键盘操作</h3>
        <div className="grid gap-5 md:grid-cols-2">
          {HINT_GROUPS.map((g) => (
            <div key={g.title}>
              <h4 className="mb-2 text-sm font-medium text-gray-600">{g.title}</h4>
              <dl className="space-y-1.5 text-sm">
                {g.hints.map((h, i) => (
                  <div key={i} className="flex items-start gap-3">
                    <dt className="flex w-28 shrink-0 flex-wrap gap-1">
                      {h.keys.map((k, j) => (
                        <kbd key={j} className="rounded border border-gray-300 border-b-2 bg-gray-50 px-1.5 font-mono text-xs text-gray-700">
                          {k}
                        </kbd>
                      ))}
                    </dt>
                    <dd className="text-gray-700">{h.what}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
