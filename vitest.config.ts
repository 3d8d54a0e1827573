import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';

/**
 * `npm test` runs three projects: `node` (domain, handlers, the local stand-ins, CDK templates),
 * `web` (React components in jsdom) and `browser` (headless Chromium against the local stack,
 * serving the build that `npm test` makes first). Where no Chromium is installed the browser
 * tests are skipped with a notice; CI sets REQUIRE_BROWSER=1 so there they must run.
 */
export default defineConfig({
  test: {
    projects: [
      {
        // The compliance PDF test renders the record with the web app's own builder.
        resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'shared/**/*.test.ts',
            'lambdas/**/*.test.ts',
            'local/**/*.test.ts',
            'test/integration/**/*.test.ts',
            'test/infra/**/*.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          setupFiles: ['test/support/quiet-logs.ts'],
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['frontend/src/**/*.test.{ts,tsx}'],
          setupFiles: ['frontend/src/testing/setup.ts'],
          // Above the 5 s that findBy…/waitFor may wait (testing/setup.ts), for several in one test.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          setupFiles: ['test/support/quiet-logs.ts'],
        },
      },
    ],
  },
});
