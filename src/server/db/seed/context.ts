import type { Pii } from '../../lib/pii';
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
  rng: Rng;
  /** The anchor every seeded time is relative to (the app's clock, never the wall clock here). */
  now: Date;
  profile: SeedProfile;
  passwordMaxAgeDays: number;
  /** Encrypts and indexes personal data as the app will read it. */
  pii: Pii;
}

/** A step of the seed; the frame has its own and each server module adds its (`ServerModule.seed`). */
export interface SeedGenerator {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}
