import { buildRegistry } from '../commands/registry';
import { accountCommands, accountSources } from '../features/account/commands';
import { settingsCommands, settingsSources } from '../features/settings/commands';
import { shellCommands, switchDistrictCommand } from './commands';

/**
 * Every command and record source of the console, composed here (the app is the composition
 * root; features only export arrays). Stations, lines, riders and cards join the same lists.
 */
export const COMMANDS = buildRegistry(shellCommands, [switchDistrictCommand], accountCommands, settingsCommands);
export const SOURCES = [...accountSources, ...settingsSources];
