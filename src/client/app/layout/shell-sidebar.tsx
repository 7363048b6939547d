import { Dialog, DialogPanel } from '@headlessui/react';
import type { MenuEntry } from '../menus';
import { Sidebar } from './sidebar';

interface Props {
  mobile: boolean;
  menus: MenuEntry[];
  current: string;
  desktopOpen: boolean;
  mobileOpen: boolean;
  onCloseMobile(): void;
}

/** The menu beside the page on a desktop; on a phone a drawer dialog: focus moves in and stays, Esc closes, focus returns. */
export function ShellSidebar({ mobile, menus, current, desktopOpen, mobileOpen, onCloseMobile }: Props) {
  if (mobile) {
    return (
      <Dialog open={mobileOpen} onClose={onCloseMobile} aria-label="菜单" className="relative z-40">
        <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
        <DialogPanel className="fixed inset-y-0 left-0 shadow-xl">
          <Sidebar menus={menus} current={current} collapsed={false} mobile onNavigate={onCloseMobile} />
          {/* A finger needs a way out besides the dimmed page; Esc closes it too. */}
          <button
            type="button"
            onClick={onCloseMobile}
            aria-label="关闭菜单"
            title="关闭菜单 (Esc)"
            className="absolute top-2 left-full ml-2 grid size-9 place-items-center rounded-full bg-white text-lg leading-none text-gray-700 shadow focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
          >
            <span aria-hidden="true">✕</span>
          </button>
        </DialogPanel>
      </Dialog>
    );
  }
  return (
    <aside className="shrink-0">
      <Sidebar menus={menus} current={current} collapsed={!desktopOpen} mobile={false} onNavigate={() => undefined} />
    </aside>
  );
}
