import type { Command } from '../../commands/types';
import { classesCommands } from './classes-commands';
import { demandCommands } from './demand-commands';
import { fleetCommands } from './fleet-commands';
import { networkCommands } from './network-commands';
import { orderCommands } from './order-commands';

/** 定制公交's palette commands, one file per part. */
export const customBusCommands: readonly Command[] = [...networkCommands, ...fleetCommands, ...classesCommands, ...orderCommands, ...demandCommands];
