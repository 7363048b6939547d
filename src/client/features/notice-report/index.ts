import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 公告与反馈 (module `noticeReport`): 公告管理; 意见反馈 to come. */
export const noticeReportFeature = defineFeature({
  screens: {
    ListNotice: lazy(() => import('./pages/notice-page').then((m) => ({ default: m.NoticePage }))),
  },
});
