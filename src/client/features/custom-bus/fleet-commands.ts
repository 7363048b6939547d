import type { Command } from '../../commands/types';

/** This part's palette commands (second wave §5's Palette row). */
export const fleetCommands: readonly Command[] = [];
