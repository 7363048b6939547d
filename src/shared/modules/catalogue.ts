import { type AuthItemPara, MENU_IDS, type MenuId } from '../api/menus';
import type { ModuleManifest } from './define';

export interface AuthItemRow {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  para: string;
  type: 'menu' | 'page' | 'button';
  sort: number;
}

const para = (p: AuthItemPara) => JSON.stringify(p);

/**
 * The menu catalogue the server upserts at every start, from the modules' manifests joined to their
 * contracts (CONTRACT_MODULES): the 18 menus of spec §2 in its order with their pages, and one button
 * item per permission key under the menu of the module declaring it. Components whose name starts with `List` are cached views (spec §9).
 */
export function menuCatalogue(modules: readonly (ModuleManifest & { buttons: Readonly<Record<string, string>> })[]): AuthItemRow[] {
  const rows: AuthItemRow[] = [];
  MENU_IDS.forEach((menuId, i) => {
    const owners = modules.filter((m) => m.menu?.id === menuId);
    const menu = owners[0]?.menu;
    if (!menu || owners.length > 1) throw new Error(`menu ${menuId}: ${owners.length} modules declare it, expected 1`);
    const first = menu.pages.find((p) => !p.hidden);
    const roles = menu.roles ? [...menu.roles] : undefined;
    rows.push({
      id: menu.id,
      parentId: null,
      name: menu.title,
      path: `/${menu.id}`,
      para: para({ title: menu.title, icon: menu.icon, component: 'Layout', redirect: first ? `/${menu.id}/${first.key}` : undefined, roles }),
      type: 'menu',
      sort: (i + 1) * 100,
    });
    menu.pages.forEach((page, j) => {
      rows.push({
        id: `${menu.id}.${page.key}`,
        parentId: menu.id,
        name: page.title,
        path: page.key,
        para: para({ title: page.title, component: page.component, noCache: !page.component.startsWith('List'), roles: page.roles ? [...page.roles] : roles }),
        type: page.hidden ? 'page' : 'menu',
        sort: (i + 1) * 100 + j + 1,
      });
    });
  });
  let b = 0;
  for (const m of modules) {
    for (const [key, label] of Object.entries(m.buttons)) {
      // Buttons hang under their module's menu; a module without one (none today) files them at the top.
      rows.push({ id: key, parentId: m.menu?.id ?? null, name: label, path: key, para: para({ title: label }), type: 'button', sort: 10_000 + b++ });
    }
  }
  return rows;
}

/** Item ids of the given menus with all their pages. */
export function menuItemIds(catalogue: readonly AuthItemRow[], menuIds: readonly MenuId[]): string[] {
  return catalogue.filter((r) => r.type !== 'button' && menuIds.includes((r.parentId ?? r.id) as MenuId)).map((r) => r.id);
}
