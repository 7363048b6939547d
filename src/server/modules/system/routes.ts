import { system } from '../../../shared/api';
import type { AppDeps } from '../../context';
import type { Binder } from '../../plugins/contract';
import * as service from './service';

export function systemRoutes(b: Binder, deps: AppDeps): void {
  b.bind(system.sysLogPage, ({ auth, query }) => service.pageLogs(deps, auth, query));
  b.bind(system.sysLogOperationTypes, async () => service.operationTypes());
  b.bind(system.districtPage, ({ auth, query }) => service.pageDistricts(deps, auth, query));
  b.bind(system.agreementList, ({ auth, query }) => service.listAgreements(deps, auth, query.code));
  b.bind(system.agreementSave, ({ auth, body }) => service.saveAgreement(deps, auth, body));
  b.bind(system.qrCode, () => service.qrCode(deps));
  b.bind(system.cityLocation, () => service.cityLocation(deps));
  b.bind(system.payInfoList, () => service.listPayInfo(deps));
}
