import { NOTICE_EDITOR, NOTICE_PUBLISHER, NOTICE_TITLE_MAX, type NoticeStatus, noticeExport, noticePage, noticeUpdateStatus } from '../../../shared/api/notice';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { queryText } from '../../lib/http';
import { toast } from '../../lib/toast';

/** The area's notices in one status that this account may change, as palette choices. */
const noticesIn = (status: NoticeStatus) => async () => {
  const page = await api.call(noticePage, { query: { page: 0, size: 200, status: queryText(status), sort: 'createdDate,desc' } }, { silent: true });
  return page.content.filter((n) => n.manageable).map((n) => ({ value: `${n.id}`, label: `${n.title}（${n.districtName ?? '全市'}）`, keywords: [n.title] }));
};

/**
 * 发布公告 ‹草稿› and 撤回公告 ‹已发布›: choosing the notice in the palette is the confirmation (the list's
 * buttons ask in a dialog instead); the same call and refusal, then 公告管理 shows the result.
 */
function moveCommand(id: string, title: string, from: NoticeStatus, to: NoticeStatus, keywords: string[]): Command {
  return {
    id,
    title,
    group: '公告与反馈',
    keywords,
    permission: NOTICE_PUBLISHER,
    page: pagePath('noticeReport', 'notice'),
    args: [{ name: 'id', label: `选择${from === 0 ? '草稿' : '已发布的公告'}`, kind: 'choice', options: noticesIn(from) }],
    run: (ctx, a) => {
      api
        .call(noticeUpdateStatus, { body: { id: Number(a.id), fromStatus: from, toStatus: to } })
        .then((n) => {
          toast.success(`公告「${n.title}」（${n.districtName ?? '全市'}）已${to === 2 ? '发布' : '撤回'}`);
          ctx.changed(noticeUpdateStatus);
          ctx.navigate(pagePath('noticeReport', 'notice', { query: { status: to } }));
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  };
}

/** 新建公告 ‹标题›: the form opens on 公告管理 with the title typed here (the rest is typed there). */
const newNotice: Command = {
  id: 'notice.add',
  title: '新建公告',
  group: '公告与反馈',
  keywords: ['新建', '新增', '公告', '通知', 'xinjian', 'gonggao', 'xjgg'],
  permission: NOTICE_EDITOR,
  page: pagePath('noticeReport', 'notice'),
  args: [{ name: 'title', label: '公告标题（可留空）', kind: 'text', optional: true, validate: (v) => (v.trim().length > NOTICE_TITLE_MAX ? `标题不能超过${NOTICE_TITLE_MAX}个字符` : null) }],
  run: (ctx, a) => ctx.navigate(pagePath('noticeReport', 'notice', { action: 'add', query: { title: a.title?.trim() } })),
};

export const noticeCommands: Command[] = [
  newNotice,
  moveCommand('notice.publish', '发布公告', 0, 2, ['发布', '公告', '通知', 'fabu', 'gonggao']),
  moveCommand('notice.withdraw', '撤回公告', 2, 3, ['撤回', '下线', '公告', 'chehui', 'gonggao']),
  {
    id: 'notice.export',
    title: '导出公告（Excel）',
    group: '公告与反馈',
    keywords: ['导出', '公告', 'excel', 'daochu', 'gonggao'],
    permission: noticeExport.permission,
    page: pagePath('noticeReport', 'notice'),
    run: (ctx) => ctx.navigate(pagePath('noticeReport', 'notice', { action: 'export' })),
  },
];
