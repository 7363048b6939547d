import type { ScreenComponent } from '../../shared/api';
import type { Screen } from '../lib/screen';

/**
 * What a client feature gives the console's shell, from its `index.ts`: the screens for its pages'
 * components (the keys are checked against the modules' manifests), each a lazy chunk. Its commands
 * and record sources (`commands.ts`) call its contract, so they load after the shell, with the
 * palette (app/feature-commands.ts; README decision 162). The app collects the features in
 * app/features.ts.
 */
export interface Feature<S extends Partial<Record<ScreenComponent, Screen>> = Partial<Record<ScreenComponent, Screen>>> {
  screens: S;
}

/** Keeps the exact screen keys (so the app can check it has them all) while refusing unknown ones. */
export const defineFeature = <const S extends Partial<Record<ScreenComponent, Screen>>>(f: Feature<S>): Feature<S> => f;
