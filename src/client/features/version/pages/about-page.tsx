import { version } from '../../../../../package.json';
import { MODULES } from '../../../../shared/api';
import { COMPONENT_KEYS } from '../../../commands/keymap';
import { keyLabel } from '../../../commands/keys';
import { useRegistry } from '../../../commands/registry-context';

const PRODUCT = '公交运营管理控制台';

/** Screens that are live in this build, from the modules' manifests. */
const LIVE = MODULES.flatMap((m) => ('menu' in m ? m.menu.pages.filter((p) => p.component !== 'About').map((p) => p.title) : []));

/** 关于 (About): what this console is, its version, and the keys it answers to. */
export function AboutPage() {
  const { commands, jumps } = useRegistry();
  // The same sources as the cheat sheet: the registry's hotkeys, then the components' key map.
  const groups = [
    { title: '全局', rows: [...commands, ...jumps].filter((c) => c.hotkey).map((c) => ({ keys: [keyLabel(c.hotkey as string)], what: c.title })) },
    ...COMPONENT_KEYS,
  ];
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
          本版本已提供：{LIVE.join('、')}。
        </p>
        <h3 className="mb-3 text-base font-medium text-gray-800">键盘操作</h3>
        <div className="grid gap-5 md:grid-cols-2">
          {groups.map((g) => (
            <div key={g.title}>
              <h4 className="mb-2 text-sm font-medium text-gray-600">{g.title}</h4>
              <dl className="space-y-1.5 text-sm">
                {g.rows.map((h, i) => (
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
