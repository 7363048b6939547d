import { createContext, useContext } from 'react';
import type { Command, CommandContext } from './types';

/**
 * The commands this account may run and the module jumps, as the layout bound them: screens that
 * show hotkeys (the about page) read them here rather than listing keys by hand. `ctx` is what the
 * commands run with, for a screen's button that does what a command does (open the palette).
 */
export interface RegistryValue {
  commands: readonly Command[];
  jumps: readonly Command[];
  ctx: CommandContext | null;
}

export const RegistryContext = createContext<RegistryValue>({ commands: [], jumps: [], ctx: null });

export const useRegistry = () => useContext(RegistryContext);
