import { card } from '../../../shared/api';
import * as t from '../../db/schema';
import { enqueueExport } from '../../lib/export-definition';
import type { ServerModule } from '../module';
import { riderDemoSeed } from './seed';
import * as service from './service';

/** 乘客用户管理: riders (wx-user), their cards and the desk's card lookup. */
export const riderServer: ServerModule = {
  id: 'busUser',
  seed: { demo: riderDemoSeed },
  tables: [t.riders, t.busCards],
  exportKinds: [service.ridersExport],
  routes(b, deps) {
    b.bind(card.riderPage, ({ auth, query }) => service.pageRiders(deps, auth, query));
    b.bind(card.riderSummary, ({ auth }) => service.riderSummary(deps, auth));
    b.bind(card.riderReveal, ({ auth, query, reply }) => service.revealRider(deps, auth, query, () => void reply.header('cache-control', 'no-store')));
    b.bind(card.cardLookup, ({ auth, body }) => service.lookup(deps, auth, body.q));
    b.bind(card.cardView, ({ auth, body }) => service.viewCard(deps, auth, body.cardNo));
    b.bind(card.riderAdd, ({ auth, body }) => service.addRider(deps, auth, body));
    b.bind(card.riderExport, ({ auth, query }) => {
      const title = service.riderExportTitle(query);
      return enqueueExport(deps, auth, service.ridersExport, query, title);
    });
    b.bind(card.riderResolve, ({ auth, body }) => service.resolveAbnormal(deps, auth, body));
    // The body forms: the same services with the input from the body, so scope, masking and audit are the same code.
    b.bind(card.riderPageByBody, ({ auth, body }) => service.pageRiders(deps, auth, body));
    b.bind(card.riderRevealByBody, ({ auth, body, reply }) => service.revealRider(deps, auth, body, () => void reply.header('cache-control', 'no-store')));
  },
};
