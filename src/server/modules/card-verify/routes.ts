import * as api from '../../../shared/api/card-verify';
import * as t from '../../db/schema';
import { enqueueExport } from '../../lib/export-definition';
import type { ServerModule } from '../module';
import { cardVerifyApplications, cardVerifyBatches, cardVerifyConfigs, cardVerifyReminders } from './schema';
import { cardVerifyDemoSeed } from './seed';
import * as jobs from './jobs';
import * as service from './service';

/** 线上验卡 (second wave §4): the applications' review queue, their decisions and the configuration per card type and district. */
export const cardVerifyServer: ServerModule = {
  id: 'cardVerify',
  // Applications are on riders' cards, decided by staff.
  seed: { dependsOn: ['busUser', 'user'], demo: cardVerifyDemoSeed },
  tables: [cardVerifyApplications, cardVerifyConfigs, cardVerifyBatches, cardVerifyReminders],
  // The materials live in the frame's sealed files (kind 'verify').
  writes: [t.sealedFiles],
  exportKinds: [service.applicationsExport],
  routes(b, deps) {
    const noStore = (reply: { header(k: string, v: string): unknown }) => () => void reply.header('cache-control', 'no-store');
    b.bind(api.verifyPage, ({ auth, query }) => service.pageApplications(deps, auth, query));
    b.bind(api.verifyPageByBody, ({ auth, body }) => service.pageApplications(deps, auth, body));
    b.bind(api.verifyMsg, ({ auth, query }) => service.detail(deps, auth, query.id));
    b.bind(api.verifyTotal, ({ auth, query }) => service.totals(deps, auth, query));
    b.bind(api.verifyTotalByBody, ({ auth, body }) => service.totals(deps, auth, body));
    b.bind(api.verifyClaim, ({ auth, body }) => service.claim(deps, auth, body));
    b.bind(api.verifyRelease, ({ auth, body }) => service.release(deps, auth, body.id));
    b.bind(api.verifyAudit, ({ auth, body }) => service.auditOne(deps, auth, body));
    b.bind(api.verifyAuditBatch, ({ auth, body }) => service.auditBatch(deps, auth, body));
    b.bind(api.verifyRevoke, ({ auth, body }) => service.revoke(deps, auth, body));
    b.bind(api.verifyMaterial, ({ auth, body, reply }) => service.material(deps, auth, body, noStore(reply)));
    b.bind(api.verifyDueRadar, ({ auth, query }) => service.dueRadar(deps, auth, query));
    b.bind(api.verifyDueRemind, ({ auth, body }) => service.dueRemind(deps, auth, body));
    b.bind(api.verifyExport, ({ auth, query }) => enqueueExport(deps, auth, service.applicationsExport, query, service.exportTitle(query)));
    b.bind(api.verifyConfigList, ({ auth, query }) => service.configList(deps, auth, query));
    b.bind(api.verifyConfigSave, ({ auth, body }) => service.configSave(deps, auth, body));
  },
  jobs: [
    { name: 'verify.purge', everyMs: 3_600_000, atStart: true, run: (deps) => service.purgeMaterials(deps).then(() => undefined) },
    { name: 'verify.suspend', everyMs: 3_600_000, atStart: true, run: (deps) => jobs.suspendMissed(deps).then(() => undefined) },
    { name: 'verify.dueRemind', everyMs: 6 * 3_600_000, atStart: false, run: (deps) => jobs.remindDue(deps).then(() => undefined) },
  ],
};
