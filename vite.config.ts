import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { constants as zlib } from 'node:zlib';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

const apiTarget = process.env.API_TARGET || 'http://127.0.0.1:8080';
/** Set by .ci/run (and by anyone with a PostgreSQL at hand): the server suite runs there too. */
const postgresUrl = process.env.DATABASE_URL;
/** Fails a test on any console.error it did not expect (tests/support/strict-console.ts). */
const STRICT_CONSOLE = './tests/support/strict-console.ts';
/** Ends every run with the ten slowest files (issue 20's test budget); .ci/run names it too. */
const SLOWEST_FILES = './tests/support/slowest-files.ts';
/**
 * `npm run test:night` (the clock moved to 00:30 on a month's first day in Shanghai) leaves out the
 * server files whose subject has no calendar in it: what they check holds or breaks at any hour,
 * and they are a third of the run's time. Input shapes (the fuzz, edge input, the contract), the
 * attack surface (the sweep, escalation, permissions, request URLs, headers, static files),
 * sockets and floods (connections, login protection) and the masking crawl; the seed's isolation
 * compares two seeds with each other. Of the console's files, those of keys and shapes: the
 * palette's search, keys and station merge, the layout, hotkeys, forms, dialogs' focus, row selection,
 * 基础设置, the HTTP envelope, toasts, stale saves, the refund password and the live streams.
 * Everything that computes a day, a month or a deadline (rides, exports, versions, family
 * renewals, sessions, notices, the screens' default ranges, the Shanghai days themselves) stays in.
 */
const NIGHT = process.env.TEST_NIGHT === '1';
const START_E2E = 'tests/e2e/start.test.ts';
const CLOCK_FREE = [
  'fuzz',
  'edge-input',
  'contract',
  'attack-sweep',
  'escalation',
  'permissions',
  'request-urls',
  'headers',
  'static',
  'connections',
  'login-protection',
  'masking-crawl',
  'seed-isolation',
]
  .map((name) => `tests/server/${name}.test.ts`)
  .concat(
    ['palette', 'palette-merge', 'layout', 'hotkeys', 'forms', 'modal-focus', 'data-table-selection', 'base-setting', 'http-client', 'toasts', 'stale-save', 'refund-password', 'live-console', 'download-centre-tabs'].map(
      (name) => `tests/client/${name}.test.tsx`,
    ),
  );

export default defineConfig({
  // Brotli and gzip made once at build time; the server sends whichever the browser accepts. Brotli
  // at quality 10, not the default 11: 2 % larger (632 KB against 619 KB for the whole console) for
  // a quarter of the time (1.4 s against 5.1 s), which a first `npm start` waits for.
  plugins: [
    react(),
    tailwindcss(),
    compression({ algorithms: [defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 10 } }), 'gzip'], threshold: 1024 }),
  ],
  server: {
    proxy: {
      '/busline': { target: apiTarget, changeOrigin: false },
      '/buscodepc': { target: apiTarget, changeOrigin: false },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
  test: {
    reporters: ['default', SLOWEST_FILES],
    // The migrated PGlite cluster every test database starts from (tests/support/pglite-template.ts).
    globalSetup: ['./tests/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', setupFiles: [STRICT_CONSOLE] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: NIGHT ? CLOCK_FREE : [],
          setupFiles: [STRICT_CONSOLE],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { TEST_DATABASE_URL: '' },
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'server-pg',
                include: ['tests/server/**/*.test.ts'],
                setupFiles: [STRICT_CONSOLE],
                environment: 'node',
                testTimeout: 30_000,
                hookTimeout: 60_000,
                env: { TEST_DATABASE_URL: postgresUrl },
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'client',
          include: ['tests/client/**/*.test.tsx'],
          setupFiles: [STRICT_CONSOLE, './tests/support/client-setup.ts'],
          exclude: NIGHT ? CLOCK_FREE : [],
          environment: 'happy-dom',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { TEST_DATABASE_URL: '' },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [START_E2E],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // In the run's one pool, beside the other projects: a project of one worker runs as a
          // group of its own after all the others (vitest's groupSpecs), and the browser tests were
          // then a 12-minute tail on one core. Each file starts its own server on its own port and
          // folder; the console is built once (console-build.ts locks the folder while it builds).
        },
      },
      {
        extends: true,
        test: {
          // The start's figures (issue 20's budgets) are taken alone, at the end of the run.
          name: 'e2e-start',
          include: [START_E2E],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
