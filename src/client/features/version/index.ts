import { lazy } from 'react';
import { defineFeature } from '../../lib/feature';

/** 版本管理 (module `version`): for now the about page. */
export const versionFeature = defineFeature({
  screens: {
    About: lazy(() => import('./pages/about-page').then((m) => ({ default: m.AboutPage }))),
  },
  commands: [],
  sources: [],
});
