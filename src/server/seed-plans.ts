import type { SeedPlan } from './db/seed/ahead';
import type { Rows } from './db/seed/copy-text';
import { handleCardPlan } from './modules/handle-card/seed-plan';
import { packageOrdersPlan } from './modules/package-pay/seed-plan';
import { rechargeOrdersPlan } from './modules/recharge/seed-plan';
import { ridersAndCardsPlan } from './modules/rider/seed-plan';

/**
 * The seed plans a first start makes on its worker (db/seed/ahead.ts), in the order the seed takes
 * them. A module's large load joins by exporting its plan and listing it here.
 */
export const SEED_PLANS: readonly SeedPlan<Record<string, Rows>>[] = [ridersAndCardsPlan, packageOrdersPlan, rechargeOrdersPlan, handleCardPlan];
