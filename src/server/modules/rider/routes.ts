import { card } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import { riderDemoSeed } from './seed';
import * as service from './service';

/** 乘客用户管理: riders (wx-user), their cards and the desk's card lookup. */
export const riderServer: ServerModule = {
  id: 'busUser',
  seed: { demo: riderDemoSeed },
  tables: [t.riders, t.busCards],
  routes(b, deps) {
    b.bind(card.riderPage, ({ auth, query }) => service.pageRiders(deps, auth, query));
    b.bind(card.riderSummary, ({ auth }) => service.riderSummary(deps, auth));
    b.bind(card.riderReveal, ({ auth, query, reply }) => service.revealRider(deps, auth, query, () => void reply.header('cache-control', 'no-store')));
    b.bind(card.cardLookup, ({ auth, body }) => service.lookup(deps, auth, body.q));
  },
};
