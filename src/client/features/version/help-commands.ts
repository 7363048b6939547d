import type { Command } from '../../commands/types';

/** 帮助中心's palette commands (second wave §11's Palette row). */
export const helpCommands: readonly Command[] = [];
