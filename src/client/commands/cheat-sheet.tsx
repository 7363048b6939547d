import { Modal } from '../components/modal';
import type { Command } from './types';

interface Row {
  keys: string;
  what: string;
}

const FIXED: { title: string; rows: Row[] }[] = [
  {
    title: '表格',
    rows: [
      { keys: 'j / k 或 ↓ / ↑', what: '上下移动行' },
      { keys: 'Enter', what: '打开当前行' },
      { keys: '/', what: '跳到筛选框' },
      { keys: 'PgUp / PgDn', what: '翻页' },
    ],
  },
  {
    title: '对话框',
    rows: [
      { keys: 'Ctrl+Enter', what: '提交' },
      { keys: 'Esc', what: '关闭' },
    ],
  },
  {
    title: '命令面板',
    rows: [
      { keys: '> / # @', what: '只搜命令 / 页面 / 站点线路 / 乘客卡片' },
      { keys: 'Backspace', what: '输入参数时回到上一步' },
      { keys: 'Shift+Delete', what: '移除一条最近使用' },
    ],
  },
];

/** `?`: every hotkey, generated from the registry and the module jumps, plus the fixed keys. */
export function CheatSheet({ open, onClose, commands, jumps }: { open: boolean; onClose(): void; commands: readonly Command[]; jumps: readonly Row[] }) {
  const sections = [
    {
      title: '全局',
      rows: [{ keys: 'Ctrl+K / ⌘K', what: '打开命令面板' }, ...commands.filter((c) => c.hotkey).map((c) => ({ keys: c.hotkey as string, what: c.title }))],
    },
    { title: '跳转模块（先按 g）', rows: jumps },
    ...FIXED,
  ];
  return (
    <Modal open={open} onClose={onClose} title="快捷键一览" width="max-w-2xl">
      <div className="grid gap-4 sm:grid-cols-2">
        {sections.map((s) => (
          <section key={s.title}>
            <h3 className="mb-1 text-xs font-medium text-gray-500">{s.title}</h3>
            <dl className="text-sm">
              {s.rows.map((r) => (
                <div key={r.keys + r.what} className="flex justify-between gap-3 border-b border-gray-50 py-1">
                  <dt className="text-gray-700">{r.what}</dt>
                  <dd>
                    <kbd className="rounded border border-gray-200 bg-gray-50 px-1.5 text-xs text-gray-600">{r.keys}</kbd>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
