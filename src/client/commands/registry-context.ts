import { createContext, useContext } from 'react';
import type { Command } from './types';

/**
 * The commands this account may run and the module jumps, as the layout bound them: screens that
 * show hotkeys (the about page) read them here rather than listing keys by hand.
 */
export interface RegistryValue {
  commands: readonly Command[];
  jumps: readonly Command[];
}

export const RegistryContext = createContext<RegistryValue>({ commands: [], jumps: [] });

export const useRegistry = () => useContext(RegistryContext);
