import type { Command } from '../../commands/types';

/** 定制公交设置's palette commands (second wave §6's Palette row). */
export const customSettingCommands: readonly Command[] = [];
