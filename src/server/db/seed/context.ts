import type { ModuleId } from '../../../shared/api';
import type { Pii } from '../../lib/pii';
import type { Ahead } from './ahead';
import type { Db } from '../connection';
import { DISTRICTS } from './city';
import type { Rng } from './rng';

export const DEMO_PASSWORD = 'Bus@2026';
export const DAY_MS = 86_400_000;

export interface SeedProfile {
  name: 'demo' | 'small';
  districts: number;
  extraStaff: number;
}

export const PROFILES: Record<SeedProfile['name'], SeedProfile> = {
  demo: { name: 'demo', districts: DISTRICTS.length, extraStaff: 24 },
  small: { name: 'small', districts: 3, extraStaff: 4 },
};

export interface SeedContext {
  db: Db;
  /** The stream of this part of the seed alone (`createStream(SEED, module id)`). */
  rng: Rng;
  /** The anchor every seeded time is relative to (the app's clock, never the wall clock here). */
  now: Date;
  profile: SeedProfile;
  passwordMaxAgeDays: number;
  /** Encrypts and indexes personal data as the app will read it. */
  pii: Pii;
  /** The city's seed value: a plan's stream is made from it (db/seed/ahead.ts). */
  seed: number;
  /** Plans made on the seed's worker, when one runs (a first start on a new PGlite folder). */
  ahead?: Ahead;
}

/** A step of the seed; the frame has its own and each server module adds its (`ServerModule.seed`). */
export interface SeedGenerator {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}

/**
 * A module's part of the seed (`ServerModule.seed`). It writes only the module's own tables
 * (`ServerModule.tables`) from its own random stream; what it needs of another module's data (the
 * cards a discount order is paid with) it reads from the database, so that module must be listed in
 * `dependsOn`: the runner seeds it first.
 */
export interface ModuleSeed {
  dependsOn?: readonly ModuleId[];
  /** At every start (reference data, upserted or inserted once). */
  base?: readonly SeedGenerator[];
  /** Into an empty demo database. */
  demo?: readonly SeedGenerator[];
}
