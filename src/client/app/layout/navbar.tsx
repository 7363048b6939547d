import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useTitleOf } from '../../lib/screen-title';
import type { MenuPage } from '../menus';
import { AreaSelector } from './area-selector';

interface NavbarProps {
  page: MenuPage | undefined;
  userName: string;
  openDistrict: boolean;
  sidebarOpen: boolean;
  onToggleSidebar(): void;
  onChangeDistrict(id: string | null): void;
  onChangePassword(): void;
  onOpenSettings(): void;
  onLogout(): void;
  /** Export tasks waiting or running: the download centre's badge. */
  openTasks: number;
  onOpenDownloads(): void;
}

/** Hamburger, breadcrumb, area selector and the user-name menu (spec §2). */
export function Navbar(p: NavbarProps) {
  const title = useTitleOf(p.page?.path, p.page?.title ?? '');
  return (
    <header className="flex h-12 items-center gap-3 border-b border-gray-200 bg-white px-3 shadow-sm">
      <button
        type="button"
        onClick={p.onToggleSidebar}
        aria-label={p.sidebarOpen ? '收起菜单' : '展开菜单'}
        aria-expanded={p.sidebarOpen}
        className="rounded p-1.5 text-gray-600 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
      >
        <span aria-hidden="true" className="block text-lg leading-none">☰</span>
      </button>
      <nav aria-label="面包屑" className="min-w-0 flex-1 truncate text-sm text-gray-500">
        {p.page ? (
          <ol className="flex gap-2">
            <li className="hidden sm:block">{p.page.menuTitle}</li>
            <li aria-hidden="true" className="hidden sm:block">
              /
            </li>
            {/* The page's one <h1>: the title already shown here, so nothing new appears on screen. */}
            <li aria-current="page" className="min-w-0 truncate text-gray-800">
              <h1 className="truncate text-sm font-normal">{title}</h1>
            </li>
          </ol>
        ) : (
          <span>首页</span>
        )}
      </nav>
      {p.openDistrict && <AreaSelector onChange={p.onChangeDistrict} />}
      <button
        type="button"
        onClick={p.onOpenDownloads}
        title="下载中心 (g d)"
        aria-keyshortcuts="g d"
        aria-label={p.openTasks ? `下载中心，${p.openTasks} 个导出进行中` : '下载中心'}
        className="relative flex items-center gap-1 rounded px-2 py-1 text-sm text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-[var(--theme)]"
      >
        <span aria-hidden="true">⤓</span>
        <span className="hidden sm:inline">下载中心</span>
        {p.openTasks > 0 && (
          <span aria-hidden="true" className="rounded-full bg-[var(--theme-strong)] px-1.5 text-xs leading-5 text-white tabular-nums">
            {p.openTasks}
          </span>
        )}
      </button>
      <Menu>
        <MenuButton className="flex items-center gap-1 rounded px-2 py-1 text-sm text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-[var(--theme)]">
          <span className="max-w-28 truncate">{p.userName}</span>
          <span aria-hidden="true">▾</span>
        </MenuButton>
        <MenuItems anchor="bottom end" className="z-40 w-36 rounded border border-gray-200 bg-white py-1 text-sm shadow-lg focus:outline-none">
          {[
            { label: '修改密码', run: p.onChangePassword },
            { label: '布局设置', run: p.onOpenSettings },
            { label: '退出登录', run: p.onLogout },
          ].map((a) => (
            <MenuItem key={a.label}>
              <button type="button" onClick={a.run} className="block w-full px-3 py-1.5 text-left data-[focus]:bg-gray-100">
                {a.label}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
    </header>
  );
}
