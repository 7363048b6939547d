import { type AuthItem, type AuthItemPara, MENU_IDS } from '../../src/shared/api';

export interface ExpectedPage {
  path: string;
  title: string;
  menuTitle: string;
}

/**
 * Where `/` should land for an account, worked out from the server's items on its own (not through
 * the console's code, which is what is under test): in the fixed order of menu ids (spec §2), the
 * first child of type menu by sort (README decision 77), of a top menu the roles permit.
 */
export function expectedHome(items: readonly AuthItem[], roles: readonly string[]): ExpectedPage {
  const permitted = (i: AuthItem) => {
    const wanted = (JSON.parse(i.para) as AuthItemPara).roles ?? [];
    return !wanted.length || wanted.some((r) => roles.includes(r));
  };
  for (const id of MENU_IDS) {
    const top = items.find((i) => i.id === id && i.parentId === null && i.type === 'menu');
    if (!top || !permitted(top)) continue;
    const first = items
      .filter((i) => i.parentId === id && i.type === 'menu' && permitted(i))
      .sort((a, b) => a.sort - b.sort)[0];
    if (first) return { path: `/${id}/${first.path}`, title: first.name, menuTitle: top.name };
  }
  throw new Error('the account has no menu');
}
