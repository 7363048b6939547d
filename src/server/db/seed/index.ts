import { sql } from 'drizzle-orm';
import { menuCatalogue } from '../../../shared/api';
import { CONTRACT_MODULES } from '../../../shared/api/contract';
import * as t from '../schema';
import { continueIds } from './bulk';
import { demoDistricts } from './city';
import type { SeedGenerator } from './context';

export type { Ahead } from './ahead';
export { DEMO_PASSWORD, PROFILES, type ModuleSeed, type SeedContext, type SeedGenerator, type SeedProfile } from './context';

/**
 * The frame's own tables: the log every module writes, the menu catalogue, the signing key, the
 * districts every module's rows belong to and the money modules' shared refund ledger (each module
 * writes, and seeds, only the rows of its own kind, through lib/refund-ledger.ts), and the review
 * queues' sealed images (the same rule by kind, through lib/sealed-files.ts). Every other table has
 * exactly one owning module.
 */
export const FRAME_TABLES = [t.sysLog, t.authItems, t.serverSecret, t.districts, t.moneyRefunds, t.sealedFiles] as const;

/** The menu catalogue, from the modules' manifests (src/shared/modules). */
const catalogue = () => menuCatalogue(CONTRACT_MODULES);

/** The frame's reference data, upserted at every start before the modules' own. */
export const baseGenerators: SeedGenerator[] = [
  {
    name: 'auth-items',
    async run({ db }) {
      // One statement for the whole catalogue: `excluded` is the row that was about to be inserted.
      await db
        .insert(t.authItems)
        .values(catalogue())
        .onConflictDoUpdate({
          target: t.authItems.id,
          set: {
            parentId: sql`excluded.parent_id`,
            name: sql`excluded.name`,
            path: sql`excluded.path`,
            para: sql`excluded.para`,
            type: sql`excluded.type`,
            sort: sql`excluded.sort`,
          },
        });
    },
  },
];

/** The frame's part of the demo city, its districts; the modules add theirs after it. */
export const demoGenerators: SeedGenerator[] = [
  {
    name: 'districts',
    async run({ db, profile }) {
      await db.insert(t.districts).values(demoDistricts(profile.districts));
      await continueIds(db, 'districts');
    },
  },
];
