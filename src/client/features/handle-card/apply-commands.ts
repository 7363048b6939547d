import type { Command } from '../../commands/types';

/** 办卡申请's palette commands (second wave §10's Palette row). */
export const handleApplyCommands: readonly Command[] = [];
