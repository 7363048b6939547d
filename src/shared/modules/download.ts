import { defineModule } from './define';

/**
 * 下载中心: every account's export tasks, whichever module's data they hold. No menu of its own: the
 * navbar, the palette and a hotkey open it over any screen.
 */
export const downloadModule = defineModule({
  id: 'download',
  operations: { EXPORT_DOWNLOAD: '下载导出文件', EXPORT_CANCEL: '取消导出', EXPORT_DELETE: '删除导出任务' },
});
