import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 公告与反馈 (module `noticeReport`): 公告管理 and 意见反馈. */
export const noticeReportFeature = defineFeature({
  screens: {
    ListNotice: lazy(() => import('./pages/notice-page').then((m) => ({ default: m.NoticePage }))),
    ListFeedback: lazy(() => import('./pages/feedback-page').then((m) => ({ default: m.FeedbackPage }))),
  },
});
