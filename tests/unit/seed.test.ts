import { describe, expect, it } from 'vitest';
import { MENU_IDS, menuCatalogue } from '../../src/shared/api';
import { createRng } from '../../src/server/db/seed/rng';
import { BUTTON_KEYS, CONTRACT_MODULES } from '../../src/shared/api/contract';

describe('auth item catalogue', () => {
  const items = menuCatalogue(CONTRACT_MODULES);

  it('has the 18 menus in the fixed order, each with at least one visible page', () => {
    const menus = items.filter((i) => i.parentId === null);
    expect(menus.map((m) => m.id)).toEqual([...MENU_IDS]);
    for (const m of menus) {
      expect(items.some((i) => i.parentId === m.id && i.type === 'menu'), m.id).toBe(true);
    }
  });

  it('has one button keyed by path for every permission key', () => {
    const buttons = items.filter((i) => i.type === 'button');
    expect(buttons.map((b) => b.path).sort()).toEqual([...BUTTON_KEYS].sort());
  });

  it('carries para JSON with a title, and marks only List* components as cached', () => {
    for (const item of items) {
      const para = JSON.parse(item.para) as { title?: string; component?: string; noCache?: boolean };
      expect(para.title, item.id).toBeTruthy();
      if (item.parentId !== null && item.type !== 'button') {
        expect(para.noCache, item.id).toBe(!para.component?.startsWith('List'));
      }
    }
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it('limits account screens to administrators and districts to the super user by role', () => {
    const roles = (id: string) => (JSON.parse(items.find((i) => i.id === id)?.para ?? '{}') as { roles?: string[] }).roles;
    expect(roles('user.user-list')).toEqual(['ROLE_APP_ADMIN', 'ROLE_ADMIN']);
    expect(roles('settings.districts')).toEqual(['ROLE_APP_ADMIN']);
    expect(roles('order.order-list')).toBeUndefined();
  });
});

describe('seeded generator', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = Array.from({ length: 5 }, createRng(7).next);
    const b = Array.from({ length: 5 }, createRng(7).next);
    const c = Array.from({ length: 5 }, createRng(8).next);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
