import { Suspense, lazy } from 'react';
import { Modal } from '../components/modal';
import { COMPONENT_KEYS } from './keymap';
import { keyLabel } from './keys';
import type { Command } from './types';

interface Row {
  keys: string;
  what: string;
}

// ★ 页内帮助 comes with the sheet, not the shell: its call and text are loaded the first time `?` opens.
const PageHelp = lazy(() => import('../components/page-help'));

const rowsOf = (commands: readonly Command[]): Row[] => commands.filter((c) => c.hotkey).map((c) => ({ keys: keyLabel(c.hotkey as string), what: c.title }));

/** `?`: the page's own help doc (帮助中心), then every hotkey, from the registry (commands and module jumps) and the components' key map. */
export function CheatSheet({ open, onClose, commands, jumps }: { open: boolean; onClose(): void; commands: readonly Command[]; jumps: readonly Command[] }) {
  const sections = [
    { title: '全局', rows: rowsOf(commands) },
    { title: '跳转模块（先按 g）', rows: rowsOf(jumps) },
    ...COMPONENT_KEYS.map((g) => ({ title: g.title, rows: g.rows.map((r) => ({ keys: r.keys.join(' / '), what: r.what })) })),
  ];
  return (
    <Modal open={open} onClose={onClose} title="快捷键一览" width="max-w-2xl">
      <Suspense fallback={null}>{open && <PageHelp />}</Suspense>
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
