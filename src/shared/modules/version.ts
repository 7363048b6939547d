import { defineModule } from './define';

/** 版本管理: line-network versions, 帮助中心 (docs for riders and staff, staff docs bound to console pages) and about. */
export const versionModule = defineModule({
  id: 'version',
  menu: {
    id: 'version',
    title: '版本管理',
    icon: 'version',
    jumpKey: 'e',
    pages: [
      { key: 'version', title: '线网版本', component: 'ListVersion', actions: ['add', 'diff', 'pass', 'void', 'schedule'] },
      { key: 'help-center', title: '帮助中心', component: 'HelpCenter', actions: ['add', 'edit-page', 'export'] },
      { key: 'about', title: '关于', component: 'About' },
    ],
  },
  operations: {
    VERSION_ADD: '新增版本',
    VERSION_STATUS: '修改版本状态',
    VERSION_ONLINE_TIME: '设置上线时间',
    VERSION_ONLINE: '版本上线',
    VERSION_ONLINE_HELD: '版本未上线',
    HELP_CATALOG_SAVE: '保存帮助目录',
    HELP_CATALOG_DELETE: '删除帮助目录',
    HELP_DOC_SAVE: '保存帮助文档',
    HELP_DOC_PUBLISH: '发布帮助文档',
    HELP_DOC_WITHDRAW: '下线帮助文档',
    HELP_DOC_DELETE: '删除帮助文档',
    HELP_DOC_EXPORT: '导出帮助文档',
  },
});
