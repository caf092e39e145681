import { defineConfig } from 'vitest/config';

// The whole suite again on PostgreSQL + Redis, plus tests that only make sense there (test/integration).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
