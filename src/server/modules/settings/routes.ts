import { system } from '../../../shared/api';
import * as t from '../../db/schema';
import type { ServerModule } from '../module';
import { settingsBaseSeed, settingsDemoSeed } from './seed';
import * as service from './service';

/** 小程序设置: districts, agreements and the mini-program's configuration. */
export const settingsServer: ServerModule = {
  id: 'settings',
  seed: { base: settingsBaseSeed, demo: settingsDemoSeed },
  tables: [t.agreements, t.appConfig, t.payInfo],
  routes(b, deps) {
    b.bind(system.districtPage, ({ auth, query }) => service.pageDistricts(deps, auth, query));
    b.bind(system.agreementList, ({ auth, query }) => service.listAgreements(deps, auth, query.code));
    b.bind(system.agreementSave, ({ auth, body }) => service.saveAgreement(deps, auth, body));
    b.bind(system.qrCode, () => service.qrCode(deps));
    b.bind(system.cityLocation, () => service.cityLocation(deps));
    b.bind(system.configSave, ({ auth, body }) => service.saveBaseSetting(deps, auth, body));
    b.bind(system.payInfoList, () => service.listPayInfo(deps));
  },
};
