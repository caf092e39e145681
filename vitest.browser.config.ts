import { defineConfig } from 'vitest/config';

// Browser tests: real Chromium (Debian `chromium`, driven by playwright-core) against the real app on a real port.
// The global setup builds the admin app (dist/admin) once when its sources are newer than the build.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/browser/admin/build.setup.ts'],
    pool: 'forks',
    // two processes, each evaluating src once and seeding the demo data once (test/helpers/app.ts) for the files it
    // runs; two Chromiums at once halve the suite's time on CI's two cores
    isolate: false,
    maxWorkers: 2,
    fileParallelism: true,
    // a poll waits for what a click set going (an upload's resizing, a refetch): on two busy cores that can take
    // longer than the default second, though the value a poll waits for is the same
    expect: { poll: { timeout: 10_000 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
