/**
 * `npm run bench:export`: the 1,000,000-row export alone (PGlite, and PostgreSQL with
 * BENCH_DATABASE_URL or DATABASE_URL); BENCH_EXPORT_ROWS sets another size. Also part of `npm run bench`.
 */
import { exportSection } from './export.bench';

const lines = await exportSection((msg) => process.stderr.write(`${msg}\n`));
console.log(lines.join('\n'));
