import { describe, expect, it } from 'vitest';
import { buildMenus, buttonKeysOf, findPage, homePath } from '../../src/client/app/menus';
import { type AuthItem, type AuthItemPara, MENU_IDS, menuCatalogue } from '../../src/shared/api';
import { CONTRACT_MODULES } from '../../src/shared/api/contract';

/** Menus and routes from the server's items (spec §2, §6, §9). */

let sort = 0;
const para = (p: Partial<AuthItemPara>) => JSON.stringify({ title: '', ...p });
const top = (id: string, title: string, p: Partial<AuthItemPara> = {}): AuthItem => ({
  id,
  parentId: null,
  name: title,
  path: `/${id}`,
  para: para({ title, component: 'Layout', ...p }),
  type: 'menu',
  sort: ++sort,
});
const child = (parent: string, path: string, title: string, p: Partial<AuthItemPara> = {}, type: AuthItem['type'] = 'menu', order = ++sort): AuthItem => ({
  id: `${parent}.${path}`,
  parentId: parent,
  name: title,
  path,
  para: para({ title, ...p }),
  type,
  sort: order,
});

describe('buildMenus', () => {
  it('keeps only the known top-level ids, in the fixed order of spec §2 whatever order the server sent', () => {
    const items = [
      top('settings', '小程序设置'),
      child('settings', 'base-setting', '基础设置', { component: 'BaseSetting' }),
      top('station', '站点管理'),
      child('station', 'station', '站点', { component: 'ListStation' }),
      top('bogus', '未知菜单'),
      child('bogus', 'x', '未知页面', { component: 'ListX' }),
      top('noticeReport', '公告与反馈'),
      child('noticeReport', 'notice', '公告管理', { component: 'ListNotice' }),
      top('order', '乘车记录管理'),
      child('order', 'order-list', '乘车记录', { component: 'ListOrder' }),
    ];
    const menus = buildMenus(items, ['ROLE_USER']);
    expect(menus.map((m) => m.id)).toEqual(['noticeReport', 'order', 'station', 'settings']);
    expect(menus.flatMap((m) => m.children).some((c) => c.title === '未知页面')).toBe(false);
    expect(findPage(menus, '/bogus/x')).toBeUndefined();
  });

  it('follows MENU_IDS exactly, from noticeReport to settings', () => {
    const items = [...MENU_IDS].reverse().flatMap((id) => [top(id, id), child(id, 'p', `${id} page`, { component: 'ListP' })]);
    expect(buildMenus(items, []).map((m) => m.id)).toEqual([...MENU_IDS]);
  });

  it('ignores a known id that is not a top-level menu item (a button, a page, or one with a parent)', () => {
    const items = [
      { ...top('order', '乘车记录管理'), type: 'button' as const },
      { ...top('station', '站点管理'), parentId: 'order' },
      child('order', 'order-list', '乘车记录', { component: 'ListOrder' }),
      child('station', 'station', '站点', { component: 'ListStation' }),
    ];
    expect(buildMenus(items, [])).toEqual([]);
  });

  it('builds full paths and titles; children in their sort order; buttons are not pages', () => {
    const items = [
      top('user', '账号管理'),
      child('user', 'sys-log', '系统日志', { component: 'ListSysLog' }, 'menu', 3),
      child('user', 'user-list', '账号列表', { component: 'ListUser' }, 'menu', 1),
      { ...child('user', 'role-group', '角色组', { component: 'ListRoleGroup' }, 'menu', 2), para: para({ title: '', component: 'ListRoleGroup' }) },
      { ...child('user', 'USER_ADD', '新增与编辑账号', {}, 'button'), id: 'USER_ADD', path: 'USER_ADD' },
    ];
    const [menu] = buildMenus(items, ['ROLE_ADMIN']);
    expect(menu?.path).toBe('/user');
    expect(menu?.title).toBe('账号管理');
    expect(menu?.children.map((c) => c.path)).toEqual(['/user/user-list', '/user/role-group', '/user/sys-log']);
    // An empty para title falls back to the item's name.
    expect(menu?.children[1]?.title).toBe('角色组');
    expect(menu?.children.map((c) => c.menuTitle)).toEqual(['账号管理', '账号管理', '账号管理']);
    expect(buttonKeysOf(items)).toEqual(['USER_ADD']);
  });

  it('page items are hidden from the menu but still routable', () => {
    const items = [
      top('bus', '公交线路'),
      child('bus', 'list', '线路列表', { component: 'ListBusLine' }),
      child('bus', 'bus-line', '线路详情', { component: 'BusLine' }, 'page'),
    ];
    const menus = buildMenus(items, []);
    const detail = findPage(menus, '/bus/bus-line');
    expect(detail).toMatchObject({ path: '/bus/bus-line', title: '线路详情', hidden: true, component: 'BusLine' });
    expect(findPage(menus, '/bus/list')?.hidden).toBe(false);
  });

  it('filters children and whole menus by para.roles', () => {
    const items = [
      top('user', '账号管理', { roles: ['ROLE_APP_ADMIN', 'ROLE_ADMIN'] }),
      child('user', 'user-list', '账号列表', { component: 'ListUser', roles: ['ROLE_APP_ADMIN', 'ROLE_ADMIN'] }),
      top('settings', '小程序设置'),
      child('settings', 'agreements', '协议管理', { component: 'ListAgreement' }),
      child('settings', 'districts', '区域管理', { component: 'ListDistrict', roles: ['ROLE_APP_ADMIN'] }),
    ];
    const paths = (roles: string[]) => buildMenus(items, roles).flatMap((m) => m.children.map((c) => c.path));
    expect(paths(['ROLE_APP_ADMIN'])).toEqual(['/user/user-list', '/settings/agreements', '/settings/districts']);
    expect(paths(['ROLE_ADMIN'])).toEqual(['/user/user-list', '/settings/agreements']);
    expect(paths(['ROLE_USER'])).toEqual(['/settings/agreements']);
    expect(paths([])).toEqual(['/settings/agreements']);
    // A role-guarded page is not routable either: the guard sends it to /404.
    expect(findPage(buildMenus(items, ['ROLE_ADMIN']), '/settings/districts')).toBeUndefined();
  });

  it('drops a menu none of whose children remain', () => {
    const items = [top('recharge', 'NFC充值'), child('recharge', 'recharge', 'NFC充值记录', { component: 'ListRecharge', roles: ['ROLE_APP_ADMIN'] })];
    expect(buildMenus(items, ['ROLE_USER'])).toEqual([]);
  });

  it('caches the views whose component starts with List, and no others', () => {
    const items = [
      top('order', '乘车记录管理'),
      child('order', 'order-list', '乘车记录', { component: 'ListOrder' }),
      child('order', 'order-total', '乘车统计', { component: 'OrderTotal' }),
      child('order', 'export-list', '导出', { component: 'ExportList' }),
      child('order', 'lister', '小写', { component: 'listLower' }),
      child('order', 'no-component', '无组件'),
    ];
    const byPath = Object.fromEntries(buildMenus(items, []).flatMap((m) => m.children).map((c) => [c.path, c.cached]));
    expect(byPath).toEqual({
      '/order/order-list': true,
      '/order/order-total': false,
      '/order/export-list': false,
      '/order/lister': false,
      '/order/no-component': false,
    });
  });

  it('survives a para that is not JSON', () => {
    const items = [top('order', '乘车记录管理'), { ...child('order', 'order-list', '乘车记录'), para: '{not json' }];
    const page = buildMenus(items, []).at(0)?.children.at(0);
    expect(page).toMatchObject({ path: '/order/order-list', title: '乘车记录', cached: false, hidden: false });
  });
});

describe('homePath', () => {
  it('is the first visible child of the first permitted menu', () => {
    const items = [
      top('order', '乘车记录管理'),
      child('order', 'order-detail', '订单详情', { component: 'OrderDetail' }, 'page', 1),
      child('order', 'order-list', '乘车记录', { component: 'ListOrder' }, 'menu', 2),
      top('noticeReport', '公告与反馈', { roles: ['ROLE_APP_ADMIN'] }),
      child('noticeReport', 'notice', '公告管理', { component: 'ListNotice' }),
    ];
    expect(homePath(buildMenus(items, ['ROLE_USER']))).toBe('/order/order-list');
    expect(homePath(buildMenus(items, ['ROLE_APP_ADMIN']))).toBe('/noticeReport/notice');
  });

  it('is /404 when the user has no menu at all', () => {
    expect(homePath([])).toBe('/404');
  });
});

describe('the seeded catalogue through buildMenus', () => {
  const catalogue = menuCatalogue(CONTRACT_MODULES);

  it('gives the super user all 18 menus in order, landing on the first notice page', () => {
    const menus = buildMenus(catalogue, ['ROLE_APP_ADMIN']);
    expect(menus.map((m) => m.id)).toEqual([...MENU_IDS]);
    expect(homePath(menus)).toBe('/noticeReport/notice');
    expect(findPage(menus, '/settings/districts')).toBeDefined();
  });

  it('hides the account menu and the district screen from a plain user', () => {
    const menus = buildMenus(catalogue, ['ROLE_USER']);
    expect(menus.some((m) => m.id === 'user')).toBe(false);
    expect(findPage(menus, '/settings/districts')).toBeUndefined();
    // Hidden pages of the catalogue stay routable and are never listed.
    expect(findPage(menus, '/bus/bus-line')?.hidden).toBe(true);
  });
});

describe('collapsed-sidebar badges', () => {
  it('give every one of the 18 menus its own character, readable from its title', async () => {
    const { menuBadges } = await import('../../src/client/app/menus');
    const { menuCatalogue } = await import('../../src/shared/api');
    const menus = menuCatalogue(CONTRACT_MODULES)
      .filter((r) => r.type === 'menu' && r.parentId === null)
      .map((r) => ({ id: r.id, title: r.name }));
    const badges = menuBadges(menus);
    expect(menus).toHaveLength(18);
    expect(new Set(badges.values()).size).toBe(18);
    for (const m of menus) expect(m.title).toContain(badges.get(m.id));
    const by = (title: string) => badges.get(menus.find((m) => m.title === title)!.id);
    expect([by('乘车记录管理'), by('乘客用户管理'), by('定制公交'), by('定制公交设置'), by('线上验卡'), by('线上办卡')]).toEqual(['乘', '客', '定', '设', '线', '办']);
  });
});
