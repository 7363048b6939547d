import { createContext, useContext } from 'react';

/**
 * The location a screen was rendered for. Cached views stay mounted while another tab shows, so
 * they read their own path and query from here, frozen while hidden, never the live URL.
 */
export interface ScreenLocation {
  path: string;
  search: string;
  active: boolean;
}

export const ScreenContext = createContext<ScreenLocation>({ path: '/', search: '', active: true });

export const useScreenLocation = () => useContext(ScreenContext);
