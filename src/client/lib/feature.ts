import { type ComponentType, type LazyExoticComponent, createElement, lazy } from 'react';
import type { ScreenComponent } from '../../shared/api';
import type { EntitySource } from '../commands/entity-source';
import type { Command } from '../commands/types';

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

/**
 * What a client feature gives the console, from its one `index.ts`: the screens for its pages'
 * components (the keys are checked against the modules' manifests), its commands and its record
 * sources. The app collects the features in app/features.ts.
 */
export interface Feature<S extends Partial<Record<ScreenComponent, Screen>> = Partial<Record<ScreenComponent, Screen>>> {
  screens: S;
  commands: readonly Command[];
  sources: readonly EntitySource[];
}

/** Keeps the exact screen keys (so the app can check it has them all) while refusing unknown ones. */
export const defineFeature = <const S extends Partial<Record<ScreenComponent, Screen>>>(f: Feature<S>): Feature<S> => f;
