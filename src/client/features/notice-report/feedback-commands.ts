import type { Command } from '../../commands/types';

/** 意见反馈's palette commands (second wave §2's Palette row). */
export const feedbackCommands: readonly Command[] = [];
