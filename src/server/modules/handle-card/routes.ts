import { card } from '../../../shared/api';
import type { ServerModule } from '../module';
import { applyExports, applyJobs, applySeed, applyTables, bindApply } from './apply-routes';
import * as service from './service';

/** 线上办卡: the area's card list, and the applications (apply-routes.ts). */
export const handleCardServer: ServerModule = {
  id: 'handleCard',
  tables: [...applyTables],
  seed: { dependsOn: ['user', 'settings', 'busUser'], demo: [...applySeed] },
  jobs: [...applyJobs],
  exportKinds: [...applyExports],
  routes(b, deps) {
    b.bind(card.cardPage, ({ auth, query }) => service.pageCards(deps, auth, query));
    b.bind(card.cardStateCounts, ({ auth }) => service.stateCounts(deps, auth));
    bindApply(b, deps);
  },
};
