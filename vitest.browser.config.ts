import { defineConfig } from 'vitest/config';

// Browser tests: real Chromium (Debian `chromium`, driven by playwright-core) against the real app on a real port.
// The global setup builds the admin app (dist/admin) once when its sources are newer than the build.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/browser/admin/build.setup.ts'],
    pool: 'forks',
    // one process for all files: src is evaluated once and the demo data seeded once (test/helpers/app.ts)
    isolate: false,
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
