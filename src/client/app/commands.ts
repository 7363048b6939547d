import * as system from '../../shared/api/system';
import { SESSION } from '../../shared/api/permissions';
import { MENU_JUMP_KEYS } from '../../shared/modules';
import { api } from '../lib/api-client';
import { keyLabel } from '../commands/keys';
import type { Command, CommandContext, PaletteItem } from '../commands/types';
import { type MenuEntry, firstPageOf } from './menus';

export const shellCommands: Command[] = [
  { id: 'shell.palette', title: '打开命令面板', group: '系统', keywords: ['搜索', 'command', 'search'], permission: SESSION, page: null, hotkey: 'mod+k', whileTyping: true, run: (c) => c.shell('palette') },
  { id: 'shell.cheat-sheet', title: '快捷键一览', group: '系统', keywords: ['帮助', 'help', 'shortcuts'], permission: SESSION, page: null, hotkey: '?', run: (c) => c.shell('cheat-sheet') },
  { id: 'shell.change-password', title: '修改密码', group: '系统', keywords: ['password'], permission: SESSION, page: null, run: (c) => c.shell('change-password') },
  { id: 'shell.settings', title: '布局设置', group: '系统', keywords: ['主题', '标签页', 'settings'], permission: SESSION, page: null, run: (c) => c.shell('settings') },
  { id: 'shell.toggle-sidebar', title: '展开/收起菜单', group: '系统', keywords: ['侧边栏', 'sidebar'], permission: SESSION, page: null, hotkey: 'ctrl+b', run: (c) => c.shell('toggle-sidebar') },
  { id: 'shell.toggle-tags', title: '开启/关闭标签页', group: '系统', keywords: ['tags'], permission: SESSION, page: null, run: (c) => c.shell('toggle-tags') },
  { id: 'shell.downloads', title: '打开下载中心', group: '系统', keywords: ['导出', '下载', '任务', 'download', 'export'], permission: SESSION, page: null, hotkey: 'g>d', run: (c) => c.shell('downloads') },
  { id: 'shell.logout', title: '退出登录', group: '系统', keywords: ['logout', '注销'], permission: SESSION, page: null, run: (c) => c.shell('logout') },
];

/** Only for openDistrict accounts: the layout adds it when the user may switch. */
export const switchDistrictCommand: Command = {
  id: 'shell.switch-district',
  title: '切换区域',
  group: '系统',
  keywords: ['area', '区县'],
  permission: system.districtPage.permission,
  page: null,
  args: [
    {
      name: 'district',
      label: '选择区域',
      kind: 'choice',
      options: async () => {
        const page = await api.call(system.districtPage, { query: { page: 0, size: 1000 } }, { silent: true });
        return [{ value: '', label: '全部区域', keywords: ['all'] }, ...page.content.map((d) => ({ value: String(d.id), label: d.name, keywords: [d.code] }))];
      },
    },
  ],
  run: (c, a) => c.setDistrict(a.district || null),
};

/**
 * `g` then a menu's letter jumps to its first page this console has a screen for (`isBuilt`: a
 * server newer than the open console may name pages it lacks); a menu with none still opens its
 * first page, which says so. One command per menu the account has.
 */
export function jumpCommands(menus: readonly MenuEntry[], isBuilt: (component: string) => boolean = () => true): Command[] {
  return menus.flatMap((m) => {
    const first = jumpTarget(m, isBuilt);
    if (!first) return [];
    return [{ id: `jump.${m.id}`, title: m.title, group: '跳转模块', permission: SESSION, page: first.path, hotkey: `g>${MENU_JUMP_KEYS[m.id]}`, run: (ctx: CommandContext) => ctx.navigate(first.path) }];
  });
}

const jumpTarget = (m: MenuEntry, isBuilt: (component: string) => boolean) => m.children.find((c) => !c.hidden && isBuilt(c.component)) ?? firstPageOf(m);

/** Menu pages are commands too, generated from the server's menus; hidden pages are not listed. */
export function pageItems(menus: readonly MenuEntry[], isBuilt: (component: string) => boolean = () => true): PaletteItem[] {
  return menus.flatMap((m) => {
    const visible = m.children.filter((c) => !c.hidden);
    const jumpsTo = jumpTarget(m, isBuilt);
    return visible.map((p) => ({
      key: `page:${p.path}`,
      title: p.title,
      subtitle: m.title,
      group: '页面',
      hotkey: p === jumpsTo ? keyLabel(`g>${MENU_JUMP_KEYS[m.id]}`) : undefined,
      run: (ctx) => ctx.navigate(p.path),
    }));
  });
}
