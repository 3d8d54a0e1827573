import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';

/**
 * `npm test` runs two projects: `node` (domain, handlers, the local stand-ins, CDK templates)
 * and `web` (React components in jsdom). Browser tests against `npm start` have their own
 * config in test/browser and run from .ci/run.
 */
export default defineConfig({
  test: {
    projects: [
      {
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
        },
      },
    ],
  },
});
