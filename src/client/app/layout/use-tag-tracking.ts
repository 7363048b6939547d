import { useEffect } from 'react';
import type { UserInfo } from '../../../shared/api';
import { type MenuEntry, type MenuPage, findPage } from '../menus';
import { tagStore } from '../tags';

/** The tags view follows the user: their saved tabs (the home page fixed first), and each page visited. */
export function useTagTracking(user: UserInfo | null, menus: readonly MenuEntry[], home: string, page: MenuPage | undefined, location: string, search: string) {
  useEffect(() => {
    const homePage = findPage(menus, home);
    if (user) tagStore.load(user.login, homePage ? { path: home, title: homePage.title } : null);
  }, [user, menus, home]);

  useEffect(() => {
    if (page) tagStore.visit({ path: location + (search ? `?${search}` : ''), title: page.title });
  }, [page, location, search]);
}
