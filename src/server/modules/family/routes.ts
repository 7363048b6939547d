import { family } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import { ownCardTable } from './card-centre';
import { familyDemoSeed } from './seed';
import * as service from './service';

/** 亲情卡: bindings, renewals, unbind and update with the operator's password, the card-centre check. */
export const familyServer: ServerModule = {
  id: 'callingCard',
  seed: { dependsOn: ['busUser'], demo: familyDemoSeed },
  tables: [t.familyBindings, t.familyRenewals],
  routes(b, deps) {
    const centre = ownCardTable(deps.db);
    b.bind(family.bindPage, ({ auth, query }) => service.pageBindings(deps, auth, query));
    b.bind(family.bindSummary, ({ auth, query }) => service.bindingSummary(deps, auth, query));
    b.bind(family.renewLogPage, ({ auth, query }) => service.pageRenewals(deps, auth, query));
    b.bind(family.renewLogSummary, ({ auth, query }) => service.renewalSummary(deps, auth, query));
    b.bind(family.unBind, ({ auth, query, req }) => service.unbind(deps, auth, req.ip, query));
    b.bind(family.updateBind, ({ auth, query, body, req }) => service.updateBinding(deps, auth, req.ip, query.pwd, body));
    b.bind(family.cardTypeDict, async () => service.cardTypes());
    b.bind(family.checkCard, ({ query }) => service.checkCard(centre, query.busCardNo));
    b.bind(family.bindExport, ({ auth, query, reply }) => service.exportBindings(deps, auth, query, reply));
    b.bind(family.renewLogExport, ({ auth, query, reply }) => service.exportRenewals(deps, auth, query, reply));
    // The body forms: the same services with the input from the body, so scope, masking and audit are the same code.
    b.bind(family.bindPageByBody, ({ auth, body }) => service.pageBindings(deps, auth, body));
    b.bind(family.bindSummaryByBody, ({ auth, body }) => service.bindingSummary(deps, auth, body));
    b.bind(family.bindExportByBody, ({ auth, body, reply }) => service.exportBindings(deps, auth, body, reply));
    b.bind(family.unBindByBody, ({ auth, body, req }) => service.unbind(deps, auth, req.ip, body));
    b.bind(family.updateBindByBody, ({ auth, body: { pwd, ...change }, req }) => service.updateBinding(deps, auth, req.ip, pwd, change));
  },
};
