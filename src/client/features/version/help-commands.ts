import { HELP_EDITOR, HELP_READ, HELP_TITLE_MAX } from '../../../shared/api/help';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';

/** The page the console is on, as 帮助中心 names pages (`cardVerify/card-verify-list`), or null on none. */
const currentPageKey = () => {
  const key = (typeof window === 'undefined' ? '' : window.location.pathname).replace(/^\/+|\/+$/g, '');
  return /^[A-Za-z][\w-]*\/[\w-]+$/.test(key) ? key : null;
};

/** 帮助中心's palette commands (second wave §11's Palette row). */
export const helpCommands: readonly Command[] = [
  {
    id: 'help.search',
    title: '搜索帮助',
    group: '帮助中心',
    keywords: ['帮助', '文档', '搜索', 'help', 'bangzhu', 'sousuo', 'ssbz'],
    permission: HELP_READ,
    page: pagePath('version', 'help-center'),
    args: [{ name: 'keyword', label: '关键词（标题或正文）', kind: 'text', validate: (v) => (v.trim().length > HELP_TITLE_MAX ? `关键词不能超过${HELP_TITLE_MAX}个字符` : null) }],
    run: (ctx, a) => ctx.navigate(pagePath('version', 'help-center', { query: { keyword: a.keyword?.trim() } })),
  },
  {
    id: 'help.editPage',
    title: '编辑本页帮助',
    group: '帮助中心',
    keywords: ['帮助', '本页', '编辑', 'bangzhu', 'bianji', 'bjbybz'],
    permission: HELP_EDITOR,
    page: pagePath('version', 'help-center'),
    // On a console page: the doc bound to it opens in 帮助中心's editor, or a new one for it.
    when: (state) => /^\/[A-Za-z][\w-]*\/[\w-]+/.test(state.path) && !state.path.startsWith('/version/help-center'),
    run: (ctx) => {
      const pageKey = currentPageKey();
      ctx.navigate(pageKey ? pagePath('version', 'help-center', { action: 'edit-page', query: { pageKey } }) : pagePath('version', 'help-center'));
    },
  },
];
