/**
 * Seed rows and their COPY text form. Nothing but string work, so the seed's worker
 * (db/seed/ahead.ts) formats rows without loading the database's code.
 */

export type Literal = string | number | boolean | Date | null | undefined;
/** Rows of seed values, in the order of the load's columns. */
export type Rows = readonly (readonly Literal[])[];
/**
 * Rows already formatted as PostgreSQL's COPY text; from the seed's worker as UTF-8 bytes, handed
 * over without a copy (a 32 MB string would be copied to the server's thread and encoded there).
 */
export interface CopyText {
  copy: string | Uint8Array<ArrayBuffer>;
  count: number;
}

export const isCopyText = (rows: Rows | CopyText): rows is CopyText => !Array.isArray(rows);

/** A field of PostgreSQL's COPY text format: `\\N` for null, backslash escapes for the separators. */
function copyField(v: Literal): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const s = v instanceof Date ? v.toISOString() : v;
  if (s.includes('\u0000')) throw new Error('NUL in seed data');
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** Formats rows as COPY text: one line a row, fields tab-separated. */
export function toCopyText(rows: Rows): CopyText & { copy: string } {
  let copy = '';
  for (const r of rows) copy += `${r.map(copyField).join('\t')}\n`;
  return { copy, count: rows.length };
}
