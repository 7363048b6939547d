import type { AuthItem } from '../../shared/api/auth';
import { type AuthItemPara, MENU_IDS, type MenuId } from '../../shared/api/menus';

export interface MenuPage {
  id: string;
  title: string;
  /** Full route path, e.g. `/user/user-list`. */
  path: string;
  component: string;
  /** Type `page`: a route reached from another screen, not listed in the sidebar (spec §2). */
  hidden: boolean;
  /** Cached views are those whose component starts with `List` (spec §9). */
  cached: boolean;
  menuId: MenuId;
  menuTitle: string;
}

export interface MenuEntry {
  id: MenuId;
  title: string;
  icon: string;
  path: string;
  children: MenuPage[];
}

function parsePara(text: string): AuthItemPara {
  try {
    const p = JSON.parse(text) as Partial<AuthItemPara>;
    return { ...p, title: p.title ?? '' };
  } catch {
    return { title: '' };
  }
}

const allowedFor = (roles: readonly string[], para: AuthItemPara) => !para.roles?.length || para.roles.some((r) => roles.includes(r));

/**
 * The sidebar and the routes from the server's items: only the 18 known menu ids, in their fixed
 * order (spec §2), children filtered by the roles their `para` names.
 */
export function buildMenus(items: readonly AuthItem[], roles: readonly string[]): MenuEntry[] {
  const menus: MenuEntry[] = [];
  for (const id of MENU_IDS) {
    const top = items.find((i) => i.id === id && i.parentId === null && i.type === 'menu');
    if (!top) continue;
    const para = parsePara(top.para);
    if (!allowedFor(roles, para)) continue;
    const children = items
      .filter((i) => i.parentId === id && (i.type === 'menu' || i.type === 'page'))
      .sort((a, b) => a.sort - b.sort)
      .map((i) => ({ item: i, para: parsePara(i.para) }))
      .filter(({ para: p }) => allowedFor(roles, p))
      .map(({ item, para: p }) => ({
        id: item.id,
        title: p.title || item.name,
        path: `/${id}/${item.path}`,
        component: p.component ?? '',
        hidden: item.type === 'page',
        cached: (p.component ?? '').startsWith('List') && !p.noCache,
        menuId: id,
        menuTitle: para.title || top.name,
      }));
    if (!children.length) continue;
    menus.push({ id, title: para.title || top.name, icon: para.icon ?? '', path: `/${id}`, children });
  }
  return menus;
}

export const buttonKeysOf = (items: readonly AuthItem[]) => items.filter((i) => i.type === 'button').map((i) => i.path);
export const menuIdsOf = (items: readonly AuthItem[]) => items.filter((i) => i.type === 'menu').map((i) => i.id);

/** Where a menu opens: its first page listed in the sidebar (hidden pages are reached from others). */
export const firstPageOf = (menu: MenuEntry | undefined) => menu?.children.find((c) => !c.hidden);

/**
 * Where `/` goes: spec §2's first visible child of the first permitted menu, but skipping pages this
 * console has no screen for (`isBuilt`; README decision 77), so nobody's day starts on a page it
 * cannot show; with none, the spec's page.
 */
export function homePath(menus: readonly MenuEntry[], isBuilt: (component: string) => boolean = () => true): string {
  for (const m of menus) {
    const page = m.children.find((c) => !c.hidden && isBuilt(c.component));
    if (page) return page.path;
  }
  return firstPageOf(menus[0])?.path ?? '/404';
}

export const findPage = (menus: readonly MenuEntry[], path: string) =>
  menus.flatMap((m) => m.children).find((c) => c.path === path);

/**
 * One character per menu for the collapsed sidebar, never the same twice: a title's first
 * character, unless an earlier menu took it; then the first character that no earlier menu starting
 * the same way holds (乘车记录管理 乘, 乘客用户管理 客; 定制公交 定, 定制公交设置 设).
 */
export function menuBadges(menus: readonly { id: string; title: string }[]): Map<string, string> {
  const used = new Set<string>();
  const badges = new Map<string, string>();
  menus.forEach((m, i) => {
    const chars = [...m.title];
    const kin = menus.slice(0, i).filter((o) => o.title[0] === m.title[0]);
    const taken = new Set(kin.flatMap((o) => [...o.title]));
    const pick =
      [chars[0], ...chars.filter((c) => !taken.has(c)), ...chars].find((c): c is string => !!c && /\S/.test(c) && !used.has(c)) ?? String(i + 1);
    used.add(pick);
    badges.set(m.id, pick);
  });
  return badges;
}
