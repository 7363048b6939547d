import type { Command } from '../../commands/types';

/** 活动管理's palette commands (second wave §8's Palette row). */
export const activityCommands: readonly Command[] = [];
