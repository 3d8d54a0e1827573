import { defineConfig } from 'vitest/config';

/** Browser tests: headless Debian Chromium (playwright-core) against the local stack. */
export default defineConfig({
  test: {
    name: 'browser',
    environment: 'node',
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
