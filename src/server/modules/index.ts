import { CONTRACT_MODULES, type ModuleContract } from '../../shared/api/contract';
import type { Binder } from '../plugins/contract';
import type { AppDeps } from '../context';
import type { RouteContext, ServerModule } from './module';
import { settingsServer } from './settings/routes';
import { shellServer } from './shell/routes';
import { busServer } from './bus/routes';
import { handleCardServer } from './handle-card/routes';
import { noticeReportServer } from './notice-report/routes';
import { packagePayServer } from './package-pay/routes';
import { rechargeableServer } from './rechargeable/routes';
import { rechargeServer } from './recharge/routes';
import { rideServer } from './ride/routes';
import { riderServer } from './rider/routes';
import { activityServer } from './activity/routes';
import { cardVerifyServer } from './card-verify/routes';
import { customBusServer } from './custom-bus/routes';
import { customSettingServer } from './custom-setting/routes';
import { discountServer } from './discount/routes';
import { downloadServer } from './download/routes';
import { familyServer } from './family/routes';
import { stationServer } from './station/routes';
import { userServer } from './user/routes';
import { versionServer } from './version/routes';

/** Every server module, one line each. */
export const SERVER_MODULES: readonly ServerModule[] = [shellServer, downloadServer, userServer, settingsServer, stationServer, versionServer, busServer, riderServer, discountServer, familyServer, handleCardServer, rideServer, noticeReportServer, packagePayServer, rechargeableServer, rechargeServer, customSettingServer, customBusServer, cardVerifyServer, activityServer];

/**
 * Binds every module's routes, checking each binds exactly what its manifest declares: an endpoint
 * declared and not bound (or bound by the wrong module) stops the start instead of answering 404.
 */
export function bindModules(
  binder: Binder,
  deps: AppDeps,
  ctx: RouteContext,
  servers: readonly ServerModule[] = SERVER_MODULES,
  manifests: readonly ModuleContract[] = CONTRACT_MODULES,
): void {
  for (const manifest of manifests) {
    const server = servers.find((s) => s.id === manifest.id);
    const declared = manifest.endpoints.map((e) => e.id).sort();
    if (!server) {
      if (declared.length) throw new Error(`module ${manifest.id} declares endpoints but has no server module`);
      continue;
    }
    const bound: string[] = [];
    const recording: Binder = {
      bind: (e, h) => {
        bound.push(e.id);
        binder.bind(e, h);
      },
      bindPublic: (e, h) => {
        bound.push(e.id);
        binder.bindPublic(e, h);
      },
    };
    server.routes(recording, deps, ctx);
    if (JSON.stringify(bound.sort()) !== JSON.stringify(declared)) {
      throw new Error(`module ${manifest.id} binds [${bound.join(', ')}] but declares [${declared.join(', ')}]`);
    }
  }
  for (const s of servers) {
    if (!manifests.some((m) => m.id === s.id)) throw new Error(`server module ${s.id} has no manifest`);
  }
}
