import type { ComponentType, LazyExoticComponent } from 'react';
import type { ScreenComponent } from '../../shared/api';
import type { EntitySource } from '../commands/entity-source';
import type { Command } from '../commands/types';

export type Screen = LazyExoticComponent<ComponentType>;

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
