import type { ScreenComponent } from '../../shared/api';
import { accountFeature } from '../features/account';
import { activityFeature } from '../features/activity';
import { busFeature } from '../features/bus';
import { cardVerifyFeature } from '../features/card-verify';
import { customBusFeature } from '../features/custom-bus';
import { customSettingFeature } from '../features/custom-setting';
import { discountFeature } from '../features/discount';
import { familyFeature } from '../features/family';
import { handleCardFeature } from '../features/handle-card';
import { noticeReportFeature } from '../features/notice-report';
import { packagePayFeature } from '../features/package-pay';
import { rechargeableFeature } from '../features/rechargeable';
import { rechargeFeature } from '../features/recharge';
import { riderFeature } from '../features/rider';
import { rideFeature } from '../features/ride';
import { settingsFeature } from '../features/settings';
import { stationFeature } from '../features/station';
import { versionFeature } from '../features/version';
import type { Screen } from '../lib/screen';

/**
 * Every client feature's screens, composed here (the app is the composition root; features never
 * import each other). A new feature is one line in this list, and one in app/feature-commands.ts
 * for its commands and record sources.
 */
export const FEATURES = [accountFeature, settingsFeature, stationFeature, versionFeature, busFeature, riderFeature, familyFeature, discountFeature, handleCardFeature, rideFeature, noticeReportFeature, packagePayFeature, rechargeableFeature, rechargeFeature, customBusFeature, customSettingFeature, cardVerifyFeature, activityFeature] as const;

type ScreensOf<F> = F extends { screens: infer S } ? S : never;
type AllOf<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * Screens by the `component` the modules' pages name, merged from the features above. Typed as the
 * complete map: a page without a screen is a compile error, and a feature cannot
 * offer a screen no page names.
 */
export const SCREENS: Record<ScreenComponent, Screen> = Object.assign({}, ...FEATURES.map((f) => f.screens)) as AllOf<ScreensOf<(typeof FEATURES)[number]>>;
