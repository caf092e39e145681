import { defineConfig } from 'vitest/config';

// Browser tests: real Chromium (Debian `chromium`, driven by playwright-core) against the real app on a real port.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
