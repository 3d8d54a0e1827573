import type { KnipConfig } from 'knip';

/**
 * Unused files, exports, types and dependencies (`npm run lint:unused`, part of `npm run lint`).
 * The entries are every way the code is started: knip follows imports from them, so a file,
 * export or dependency it cannot reach is dead. Tests are entries too, so an export that only a
 * test uses counts as used.
 */
const config: KnipConfig = {
  entry: [
    // Lambda handlers, by the paths cdk/lib/paths.ts and the constructs name (local/start loads the same files).
    'lambdas/api/*.ts',
    'lambdas/*/handler.ts',
    'lambdas/*/*-handler.ts',
    'lambdas/triggers/*.ts',
    // cdk.json's app.
    'cdk/bin/app.ts',
    // package.json's scripts (local/*.ts, bench/*.ts, the simulator's CLI).
    'bench/*.ts',
    'local/*.ts',
    'local/simulator/cli.ts',
    // Started by path, not imported: a child process and a worker thread.
    'local/stand-ins/dynalite-process.ts',
    'local/stand-ins/lambda-worker.ts',
    // index.html's script and the web build's config and plugins.
    'frontend/src/main.tsx',
    'frontend/vite.config.ts',
    'frontend/build/*.ts',
    // Loaded whole with import() and used as a namespace value (`(await import(…)).name`), which
    // knip does not follow export by export: the compiler checks what these files must export.
    'frontend/src/lib/amplify-session.ts',
    'frontend/src/features/auth/api/sign-in.ts',
    'frontend/src/features/compliance/utils/pdf-fonts.ts',
    'frontend/src/features/shell/api/early-calls.ts',
    // vitest.config.ts's projects, their setup files and tests.
    'vitest.config.ts',
    'test/**/*.ts',
    '**/*.test.{ts,tsx}',
    'frontend/src/testing/*.{ts,tsx}',
  ],
  project: ['**/*.{ts,tsx}'],
  ignore: ['**/*.d.ts'],
  // Loaded by file path (createRequire(…).resolve in test/browser/accessibility.test.ts), never imported.
  ignoreDependencies: ['axe-core'],
};

export default config;
