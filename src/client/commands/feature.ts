import type { ScreenComponent } from '../../shared/api';
import type { Screen } from '../lib/screen';
import type { EntitySource } from './entity-source';
import type { Command } from './types';

/**
 * What a client feature gives the console, from its one `index.ts`: the screens for its pages'
 * components (the keys are checked against the modules' manifests), its commands and its record
 * sources. The app collects the features in app/features.ts. It sits beside the command and source
 * types it bundles, so `lib/` stays below `commands/`.
 */
export interface Feature<S extends Partial<Record<ScreenComponent, Screen>> = Partial<Record<ScreenComponent, Screen>>> {
  screens: S;
  commands: readonly Command[];
  sources: readonly EntitySource[];
}

/** Keeps the exact screen keys (so the app can check it has them all) while refusing unknown ones. */
export const defineFeature = <const S extends Partial<Record<ScreenComponent, Screen>>>(f: Feature<S>): Feature<S> => f;
