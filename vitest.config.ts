import { defineConfig } from 'vitest/config';
import { OWN_PROCESS } from './test/helpers/suites.js';

export default defineConfig({
  test: {
    exclude: ['test/integration/**', 'test/browser/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // One process per worker for all its files: src is evaluated once per worker, not once per file.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'admin/src/**/*.test.ts'],
          exclude: ['test/integration/**', 'test/browser/**', 'node_modules/**', ...OWN_PROCESS],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
