import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** `ILIKE %term%` with the user's %, _ and \ taken literally. */
export function contains(column: AnyPgColumn | SQL, term: string): SQL {
  const escaped = term.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`${column} ilike ${`%${escaped}%`}`;
}

export const iso = (d: Date) => d.toISOString();
