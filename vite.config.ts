import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

const apiTarget = process.env.API_TARGET || 'http://127.0.0.1:8080';
/** Set by .ci/run (and by anyone with a PostgreSQL at hand): the server suite runs there too. */
const postgresUrl = process.env.DATABASE_URL;
/** Fails a test on any console.error it did not expect (tests/support/strict-console.ts). */
const STRICT_CONSOLE = './tests/support/strict-console.ts';
/** Ends every run with the ten slowest files (issue 20's test budget); .ci/run names it too. */
const SLOWEST_FILES = './tests/support/slowest-files.ts';

export default defineConfig({
  // Brotli and gzip made once at build time; the server sends whichever the browser accepts.
  plugins: [react(), tailwindcss(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  server: {
    proxy: {
      '/busline': { target: apiTarget, changeOrigin: false },
      '/buscodepc': { target: apiTarget, changeOrigin: false },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
  test: {
    reporters: ['default', SLOWEST_FILES],
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
          setupFiles: [STRICT_CONSOLE],
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
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
