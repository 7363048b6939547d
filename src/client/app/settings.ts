import { KEYS, readJson, writeJson } from '../lib/storage';
import { createStore, useStore } from '../lib/store';
import { strongShade } from '../lib/theme-colour';

/** The settings panel (spec §2): all off by default, the theme #1890ff; kept per user. */
export type UiSize = 'medium' | 'small' | 'mini';

export interface Settings {
  theme: string;
  /** Spec §4: the UI size defaults to medium. */
  size: UiSize;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

export const DEFAULT_SETTINGS: Settings = { theme: '#1890ff', size: 'medium', tagsView: false, fixedHeader: false, sidebarLogo: false };

/** Eight presets (spec §9), the default first. */
export const THEME_PRESETS = ['#1890ff', '#304156', '#11a983', '#13c2c2', '#6959cd', '#f5222d', '#fa541c', '#faad14'] as const;

/** The last user's settings, read by index.html before the first paint so the theme never flashes. */
export const LAST_SETTINGS_KEY = 'bus-console.settings.last';

let login: string | null = null;
const settings = createStore<Settings>(readJson<Settings>(LAST_SETTINGS_KEY) ?? DEFAULT_SETTINGS);

/** Tailwind sizes in rem, so the root font size scales the whole console. */
export const SIZE_FONT: Record<UiSize, string> = { medium: '16px', small: '15px', mini: '14px' };

function apply(s: Settings) {
  document.documentElement.style.setProperty('--theme', s.theme);
  document.documentElement.style.setProperty('--theme-strong', strongShade(s.theme));
  document.documentElement.style.fontSize = SIZE_FONT[s.size] ?? SIZE_FONT.medium;
}

// Before the first render: the text shade follows whatever theme index.html applied.
if (typeof document !== 'undefined') apply(settings.get());

export function loadSettingsFor(user: string | null): void {
  login = user;
  const next = { ...DEFAULT_SETTINGS, ...(user ? readJson<Partial<Settings>>(KEYS.settings(user)) : null) };
  apply(next);
  settings.set(next);
}

export function updateSettings(patch: Partial<Settings>): void {
  const next = { ...settings.get(), ...patch };
  if (login) writeJson(KEYS.settings(login), next);
  writeJson(LAST_SETTINGS_KEY, next);
  apply(next);
  settings.set(next);
}

export const useSettings = (): Settings => useStore(settings);
