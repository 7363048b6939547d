import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import * as system from '../../../shared/api/system';
import { KEYS, readJson, writeJson } from '../../lib/storage';
import { useApi } from '../../lib/use-api';
import { type MenuEntry, menuBadges } from '../menus';
import { useSettings } from '../settings';
import { useTags } from '../tags';

export const SIDEBAR_WIDTH = 210;
const COLLAPSED_WIDTH = 54;
/**
 * The current page in the dark menu: white and marked by a bar in the theme colour. The theme's
 * own blue as text on #1f2d3d reads at 4.3:1, under the 4.5:1 text needs.
 */
const ACTIVE_ITEM = 'font-medium text-white shadow-[inset_3px_0_0_var(--theme)]';

interface SidebarProps {
  menus: MenuEntry[];
  current: string;
  collapsed: boolean;
  /** Phone layout: a drawer over the page. */
  mobile: boolean;
  onNavigate(): void;
}

/** The menu in the fixed order with page items hidden (spec §2); fixed menu colours. */
export function Sidebar({ menus, current, collapsed, mobile, onNavigate }: SidebarProps) {
  const settings = useSettings();
  const badges = useMemo(() => menuBadges(menus), [menus]);
  const tags = useTags();
  const activeMenu = menus.find((m) => m.children.some((c) => current.startsWith(c.path)))?.id;
  const [open, setOpen] = useState<Set<string>>(() => new Set(activeMenu ? [activeMenu] : []));
  // A failed QR load is only logged (spec §8): silent, no toast.
  const { data: qr } = useApi(system.qrCode, {}, { revalidateIfStale: false, onError: (e: unknown) => console.warn('QR code not loaded', e) }, { silent: true });
  const narrow = collapsed && !mobile;
  useEffect(() => {
    // Kept for the next load (spec §9 stored keys): the sidebar shows it before the call returns.
    if (qr !== undefined) writeJson(KEYS.qrCode, qr);
  }, [qr]);
  const shownQr = qr ?? readJson<string>(KEYS.qrCode);
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <nav
      aria-label="主菜单"
      className="flex h-full flex-col overflow-y-auto bg-[#304156] text-sm text-[#bfcbd9] transition-[width]"
      style={{ width: narrow ? COLLAPSED_WIDTH : SIDEBAR_WIDTH }}
    >
      {settings.sidebarLogo && (
        <div className="flex h-12 shrink-0 items-center gap-2 bg-[#2b2f3a] px-4 font-semibold text-white">
          <span aria-hidden="true" className="grid size-6 place-items-center rounded bg-[var(--theme-strong)] text-xs">
            公
          </span>
          {!narrow && <span className="truncate">公交运营管理</span>}
        </div>
      )}
      <ul className="flex-1 py-1">
        {menus.map((menu) => {
          const expanded = open.has(menu.id) || narrow;
          const visible = menu.children.filter((c) => !c.hidden);
          if (narrow) {
            return (
              <li key={menu.id}>
                <Menu>
                  <MenuButton
                    title={menu.title}
                    aria-label={menu.title}
                    className={`flex w-full items-center justify-center py-3 hover:bg-[#263445] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-[var(--theme)] ${menu.id === activeMenu ? 'text-white' : ''}`}
                  >
                    <span aria-hidden="true" className="grid size-5 place-items-center rounded bg-white/10 text-[11px]">
                      {badges.get(menu.id)}
                    </span>
                  </MenuButton>
                  {/* Collapsed, a group's pages open beside it, by click or by Enter. */}
                  <MenuItems anchor="right start" className="z-50 ml-1 w-44 rounded bg-[#1f2d3d] py-1 text-sm text-[#bfcbd9] shadow-lg focus:outline-none">
                    <p className="px-4 py-1.5 text-xs text-white/60">{menu.title}</p>
                    {visible.map((page) => (
                      <MenuItem key={page.id}>
                        <Link
                          href={tags.find((t) => (t.path.split('?')[0] ?? t.path) === page.path)?.path ?? page.path}
                          className={`block px-4 py-2 data-[focus]:bg-[#001528] ${current === page.path ? ACTIVE_ITEM : ''}`}
                        >
                          {page.title}
                        </Link>
                      </MenuItem>
                    ))}
                  </MenuItems>
                </Menu>
              </li>
            );
          }
          return (
            <li key={menu.id}>
              <button
                type="button"
                aria-expanded={expanded}
                title={narrow ? menu.title : undefined}
                onClick={() => toggle(menu.id)}
                className={`flex w-full items-center gap-2 px-5 py-3 text-left hover:bg-[#263445] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-[var(--theme)] ${menu.id === activeMenu ? 'text-white' : ''}`}
              >
                <span aria-hidden="true" className="grid size-5 shrink-0 place-items-center rounded bg-white/10 text-[11px]">
                  {badges.get(menu.id)}
                </span>
                {!narrow && <span className="flex-1 truncate">{menu.title}</span>}
                {!narrow && <span aria-hidden="true" className={`text-xs transition-transform ${expanded ? 'rotate-90' : ''}`}>›</span>}
              </button>
              {expanded && !narrow && (
                <ul className="bg-[#1f2d3d]">
                  {visible.map((page) => {
                    const active = current === page.path || current.startsWith(`${page.path}/`);
                    // An open tab keeps its query (filters, page): the menu brings the user back to it.
                    const href = tags.find((t) => (t.path.split('?')[0] ?? t.path) === page.path)?.path ?? page.path;
                    return (
                      <li key={page.id}>
                        <Link
                          href={href}
                          onClick={onNavigate}
                          aria-current={active ? 'page' : undefined}
                          className={`block truncate py-2.5 pr-4 pl-12 hover:bg-[#001528] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-[var(--theme)] ${active ? ACTIVE_ITEM : ''}`}
                        >
                          {page.title}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      {shownQr && !narrow && (
        <div className="shrink-0 p-4 text-center text-xs">
          <img src={shownQr} alt="小程序二维码" className="mx-auto size-32 rounded bg-white p-1" />
          <p className="mt-1">扫码使用乘车码</p>
        </div>
      )}
    </nav>
  );
}
