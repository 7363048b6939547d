import { defineModule } from './define';

/** 公告与反馈 (second wave §2): 公告管理 (notices riders read, their publishing and pinning) and 意见反馈 (riders' feedback, triaged and answered). */
export const noticeReportModule = defineModule({
  id: 'noticeReport',
  menu: {
    id: 'noticeReport',
    title: '公告与反馈',
    icon: 'notice',
    jumpKey: 'n',
    pages: [
      { key: 'notice', title: '公告管理', component: 'ListNotice', actions: ['add', 'export'] },
      { key: 'feedback', title: '意见反馈', component: 'ListFeedback', actions: ['open', 'export', 'triage'] },
    ],
  },
  operations: {
    NOTICE_PUBLISH: '发布公告',
    NOTICE_SCHEDULE: '定时发布公告',
    NOTICE_UNSCHEDULE: '取消定时发布',
    NOTICE_WITHDRAW: '撤回公告',
    NOTICE_REDRAFT: '公告转为草稿',
    NOTICE_EXPIRE: '公告到期下线',
    NOTICE_TOP: '置顶公告',
    NOTICE_DELETE: '删除公告',
    NOTICE_EXPORT: '导出公告',
    FEEDBACK_ASSIGN: '认领意见反馈',
    FEEDBACK_TAKEOVER: '接管意见反馈',
    FEEDBACK_REPLY: '回复意见反馈',
    FEEDBACK_DECLINE: '不处理意见反馈',
    FEEDBACK_REOPEN: '重新打开意见反馈',
    FEEDBACK_MATERIAL: '查看反馈图片与联系电话',
    FEEDBACK_EXPORT: '导出意见反馈',
    NOTICE_SAVE: '保存公告',
  },
});
