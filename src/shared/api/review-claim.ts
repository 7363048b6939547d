import { z } from 'zod';
import { id } from './fields';

/**
 * The claim calls' shapes, the same in both review queues (线上验卡, 线上办卡; server side
 * lib/review-claim.ts): take one by id or the oldest pending, skipping those just passed over, a
 * take-over for those allowed it; give one back.
 */
export const claimBody = (skipMax: number) =>
  z.object({
    id: id('申请ID').optional(),
    /** Skip these (the ones the reviewer just passed over). */
    skip: z.array(id('申请ID')).max(skipMax, { error: `最多跳过${skipMax}条` }).optional(),
    takeOver: z.boolean({ error: '接管应为 true 或 false' }).optional(),
  });

export const releaseBody = z.object({ id: id('申请ID') });
export const releaseAnswer = z.object({ released: z.boolean() });
