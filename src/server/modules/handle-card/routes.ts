import { card } from '../../../shared/api';
import type { ServerModule } from '../module';
import * as service from './service';

/** 线上办卡: for now the area's card list (applications are still to be designed). */
export const handleCardServer: ServerModule = {
  id: 'handleCard',
  tables: [],
  routes(b, deps) {
    b.bind(card.cardPage, ({ auth, query }) => service.pageCards(deps, auth, query));
    b.bind(card.cardStateCounts, ({ auth }) => service.stateCounts(deps, auth));
  },
};
