import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { markedForIntegration, OWN_PROCESS } from './test/helpers/suites.js';

// PostgreSQL + Redis: the integration-only tests (test/integration) and the unit-tree files whose behaviour depends
// on the database server or Redis, each marked `// @integration: <why>` on its first line (test/helpers/suites.ts).
// Everything else ran on PGlite in `npm test` and is not repeated.
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  test: {
    exclude: ['test/browser/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', ...markedForIntegration(root).keys()],
          exclude: ['test/browser/**', 'node_modules/**', ...OWN_PROCESS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'own-process',
          include: OWN_PROCESS.filter((f) => markedForIntegration(root).has(f)),
          isolate: true,
        },
      },
    ],
  },
});
