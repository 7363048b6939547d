import { type ComponentType, type LazyExoticComponent, createElement, lazy } from 'react';

export type Screen = LazyExoticComponent<ComponentType> | ComponentType;

/**
 * A lazily loaded screen that can be fetched ahead (`preload`, e.g. while the agent types a card
 * number): once its code is in, it renders at once instead of suspending, so the Suspense fallback
 * and React's 300 ms reveal throttle never show for it.
 */
export function preloadableScreen(load: () => Promise<ComponentType>): { Screen: ComponentType; preload(): Promise<unknown> } {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const preload = () => (loading ??= load().then((c) => (loaded = c)));
  const Lazy = lazy(() => preload().then((c) => ({ default: c })));
  const Screen = () => createElement(loaded ?? Lazy);
  return { Screen, preload };
}
