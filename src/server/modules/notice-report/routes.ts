import * as notice from '../../../shared/api/notice';
import { enqueueExport } from '../../lib/export-definition';
import type { ServerModule } from '../module';
import { bindFeedback, feedbackExports, feedbackJobs, feedbackSeed } from './feedback-routes';
import * as t from '../../db/schema';
import { feedback, notices } from './schema';
import { noticeDemoSeed } from './seed';
import * as service from './service';

/** 公告与反馈: notices, their status moves and pins, and the job that publishes the scheduled ones; 意见反馈 (feedback-routes.ts). */
export const noticeReportServer: ServerModule = {
  id: 'noticeReport',
  // Authors and handlers are staff accounts; feedback comes from riders on the lines and rides they
  // took, and 线路调整 notices name the version module's lines (those modules seed first).
  seed: { dependsOn: ['user', 'busUser', 'version', 'order'], demo: [...noticeDemoSeed, ...feedbackSeed] },
  exportKinds: [service.noticeExport, ...feedbackExports],
  tables: [notices, feedback],
  // Feedback images are sealed in the frame's sealed_files (kind 'feedback'); the ride tables are only read.
  writes: [t.sealedFiles],
  routes(b, deps) {
    b.bind(notice.noticePage, ({ auth, query }) => service.pageNotices(deps, auth, query));
    b.bind(notice.noticeTotal, ({ auth, query }) => service.noticeTotals(deps, auth, query));
    b.bind(notice.noticeExport, ({ auth, query }) => enqueueExport(deps, auth, service.noticeExport, query, service.noticeExportTitle(query)));
    b.bind(notice.noticeById, ({ auth, query }) => service.noticeById(deps, auth, query.id));
    b.bind(notice.noticeUpdateStatus, ({ auth, body }) => service.updateStatus(deps, auth, body));
    b.bind(notice.noticeTop, ({ auth, body }) => service.setTop(deps, auth, body));
    b.bind(notice.noticeDelete, ({ auth, query }) => service.deleteNotice(deps, auth, query.id));
    b.bind(notice.noticeSave, ({ auth, body }) => service.saveNotice(deps, auth, body));
    bindFeedback(b, deps);
  },
  jobs: [{ name: 'notice.publish', everyMs: 30_000, run: (deps) => service.publishDueNotices(deps) }, ...feedbackJobs],
};
