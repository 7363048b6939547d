import type { Command } from '../../commands/types';

/** 线上验卡's palette commands (second wave §4's Palette row). */
export const cardVerifyCommands: readonly Command[] = [];
