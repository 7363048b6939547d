import { waitFor } from '@testing-library/react';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../src/server/db/connection';
import * as t from '../../src/server/db/schema';

/**
 * The newest export task of a kind, as the server stored it, waited for (a screen queues it after
 * its click or its address), then deleted so a later test's wait is not answered by this one.
 */
export async function takeQueuedTask(db: Db, kind: string) {
  const row = await waitFor(
    async () => {
      const [r] = await db.select().from(t.exportTasks).where(eq(t.exportTasks.kind, kind)).orderBy(desc(t.exportTasks.id)).limit(1);
      expect(r, `an export task of kind ${kind}`).toBeTruthy();
      return r!;
    },
    { timeout: 5_000 },
  );
  await db.delete(t.exportTasks).where(eq(t.exportTasks.id, row.id));
  return row;
}
