/**
 * The keys components answer to on their own (the data table, dialogs, the permission tree, the tags
 * view, the palette's input), written once: the cheat sheet and the about page both read this list,
 * beside the commands' hotkeys from the registry.
 */
export interface KeyRow {
  keys: readonly string[];
  what: string;
}

export interface KeyGroup {
  scope: 'table' | 'dialog' | 'tree' | 'tags' | 'palette';
  title: string;
  rows: readonly KeyRow[];
}

export const COMPONENT_KEYS: readonly KeyGroup[] = [
  {
    scope: 'table',
    title: '表格',
    rows: [
      { keys: ['j', 'k'], what: '下一行 / 上一行（也可用 ↓ / ↑）' },
      { keys: ['Home', 'End'], what: '第一行 / 最后一行' },
      { keys: ['Enter'], what: '打开当前行（编辑或详情）' },
      { keys: ['PgDn', 'PgUp'], what: '下一页 / 上一页' },
      { keys: ['/'], what: '跳到第一个筛选框' },
      { keys: ['Enter'], what: '在筛选框中：查询' },
      { keys: ['↓', 'Esc'], what: '在筛选框中：回到列表' },
      { keys: ['Tab'], what: '当前行的操作按钮，再往后是分页' },
      { keys: ['空格', 'x'], what: '可多选的表格：勾选或取消当前行' },
      { keys: ['Shift+j', 'Shift+k'], what: '可多选的表格：连选下一行 / 上一行' },
      { keys: ['Esc'], what: '可多选的表格：取消全部勾选' },
    ],
  },
  {
    scope: 'dialog',
    title: '对话框',
    rows: [
      { keys: ['Enter'], what: '在输入框中：提交' },
      { keys: ['Ctrl+Enter'], what: '在任何位置提交（多行文本中也可以）' },
      { keys: ['Esc'], what: '关闭，不保存' },
      { keys: ['Tab', 'Enter'], what: '不能撤销的操作（作废、删除、合并、审核通过）：焦点先在「取消」，Tab 到确认按钮再按 Enter' },
    ],
  },
  {
    scope: 'tree',
    title: '权限树（角色组 · 编辑权限）',
    rows: [
      { keys: ['↓', '↑'], what: '下一项 / 上一项' },
      { keys: ['→', '←'], what: '展开 / 收起，或到上一级' },
      { keys: ['空格'], what: '勾选或取消，含全部下级' },
    ],
  },
  {
    scope: 'tags',
    title: '标签页（在“布局设置”中开启）',
    rows: [
      { keys: ['←', '→'], what: '切换标签' },
      { keys: ['Delete'], what: '关闭当前标签' },
    ],
  },
  {
    scope: 'palette',
    title: '命令面板',
    rows: [
      { keys: ['>', '/', '#', '@'], what: '只搜命令 / 页面 / 站点线路 / 乘客卡片' },
      { keys: ['Tab', '→'], what: '选中的记录（站点、版本、账号）：列出它的操作，Enter 执行（与表格行上的操作相同）' },
      { keys: ['Alt+字母'], what: '选中的记录：直接执行它的一个操作（字母与表格行上的快捷键相同，如 Alt+S 停用）' },
      { keys: ['←', 'Esc'], what: '从记录的操作回到搜索结果' },
      { keys: ['Backspace'], what: '输入参数时回到上一步' },
      { keys: ['Shift+Delete'], what: '移除一条最近使用' },
    ],
  },
];
