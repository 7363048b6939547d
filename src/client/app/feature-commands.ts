import { buildRegistry } from '../commands/registry';
import { accountCommands, accountSources } from '../features/account/commands';
import { activityCommands, activitySources } from '../features/activity/commands';
import { busCommands, busSources } from '../features/bus/commands';
import { cardVerifyCommands } from '../features/card-verify/commands';
import { customBusCommands } from '../features/custom-bus/commands';
import { customBusSources } from '../features/custom-bus/order-source';
import { customSettingCommands } from '../features/custom-setting/commands';
import { discountCommands, discountSources } from '../features/discount/commands';
import { familyCommands } from '../features/family/commands';
import { handleApplyCommands } from '../features/handle-card/apply-commands';
import { noticeCommands } from '../features/notice-report/commands';
import { feedbackCommands } from '../features/notice-report/feedback-commands';
import { packageCommands } from '../features/package-pay/commands';
import { packageSources } from '../features/package-pay/order-source';
import { rechargeCommands } from '../features/recharge/commands';
import { rechargeableCommands } from '../features/rechargeable/commands';
import { rideCommands, rideSources } from '../features/ride/commands';
import { riderCommands, riderSources } from '../features/rider/commands';
import { settingsCommands, settingsSources } from '../features/settings/commands';
import { stationCommands, stationSources } from '../features/station/commands';
import { versionCommands, versionSources } from '../features/version/commands';
import { helpCommands } from '../features/version/help-commands';
import { shellCommands, switchDistrictCommand } from './commands';

/**
 * Every feature's palette commands and record sources, with the shell's own. They call the features'
 * contracts (every endpoint and its zod schemas), so this module is a chunk of its own the layout
 * fetches as soon as it mounts, beside the palette, and never part of the login page (README
 * decision 162); until it is here the shell's commands (app/commands.ts) are the registry.
 */
export const COMMANDS = buildRegistry(
  shellCommands,
  [switchDistrictCommand],
  accountCommands,
  settingsCommands,
  stationCommands,
  versionCommands,
  busCommands,
  riderCommands,
  familyCommands,
  discountCommands,
  rideCommands,
  noticeCommands,
  packageCommands,
  rechargeableCommands,
  rechargeCommands,
  customBusCommands,
  customSettingCommands,
  cardVerifyCommands,
  handleApplyCommands,
  feedbackCommands,
  activityCommands,
  helpCommands,
);

export const SOURCES = [accountSources, settingsSources, stationSources, versionSources, busSources, riderSources, discountSources, rideSources, packageSources, customBusSources, activitySources].flat();
