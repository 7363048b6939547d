import { lazy } from 'react';
import { defineFeature } from '../../commands/feature';

/** 版本管理 (module `version`): the line-network versions, 帮助中心 and the about page. */
export const versionFeature = defineFeature({
  screens: {
    About: lazy(() => import('./pages/about-page').then((m) => ({ default: m.AboutPage }))),
    ListVersion: lazy(() => import('./pages/version-page').then((m) => ({ default: m.VersionPage }))),
    HelpCenter: lazy(() => import('./pages/help-center-page').then((m) => ({ default: m.HelpCenterPage }))),
  },
});
