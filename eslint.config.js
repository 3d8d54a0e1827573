import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/*
 * Layers (docs/architecture.md "Layers"), enforced here with no-restricted-imports patterns that
 * match import strings at any depth:
 *  - shared/ is the domain: zod and other shared files only;
 *  - a frontend feature does not import another feature (shared UI is in components/ and lib/);
 *  - @aws-sdk/* only in lambdas/adapters/, local/, cdk/, bench/ and tests;
 *  - lambdas/ports/ is the ground floor: it imports shared/, other ports and library types only;
 *  - lambdas/adapters/ is imported only by other adapters and the composition root below (and by
 *    tests, local/ and bench/, which build adapters against the local stack), statically or with
 *    import(): everything else, cdk/ included, depends on the ports, so an adapter can change
 *    without touching what uses it;
 *  - cdk/ imports shared/ and lambdas/ports/ only (each function's ports and settings are there);
 *  - the top-level folders in one order: shared/ at the bottom (zod and itself only, an allow-list);
 *    lambdas/ and frontend/ on it, never on each other; local/ on top (only tests, bench/ and the
 *    web build's dev server import it); frontend lib/ and components/ never import a feature.
 * Import cycles are refused by `npm run lint:cycles` (dpdm, type imports included).
 */
const FEATURES = readdirSync(new URL('./frontend/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const AWS_SDK = { group: ['@aws-sdk/*'], message: '@aws-sdk is for lambdas/adapters/, local/, cdk/, bench/ and tests only.' };

/** The web app uses one router package; react-router-dom re-exports what react-router has. */
const ROUTER_PATHS = [{ name: 'react-router', message: "Import from 'react-router-dom', the app's router package." }];

const LOCAL = { group: ['**/local', '**/local/**'], message: 'local/ is the top layer: only tests, bench/ and the dev server import it.' };
const NOT_FROM_LAMBDAS = { group: ['**/frontend', '**/frontend/**', '**/cdk', '**/cdk/**'], message: 'lambdas/ imports shared/ and itself only (never frontend/, local/ or cdk/).' };
const NOT_FROM_FRONTEND = { group: ['**/lambdas', '**/lambdas/**', '**/cdk', '**/cdk/**'], message: 'frontend/ imports shared/ and itself only (never lambdas/, local/ or cdk/).' };
/** cdk/ stands on shared/ and the ports: each function's port list, key prefixes and settings, never its code. */
const NOT_FROM_CDK = {
  regex: '(^|/)(lambdas(?!/ports/)|frontend|local)(/|$)',
  message: 'cdk/ imports shared/ and lambdas/ports/ only (move what the stack needs from a function into lambdas/ports/).',
};
/** shared/ as an allow-list: its own files (relative paths) and zod. */
const SHARED_ALLOWED = { regex: '^(?!\\.{1,2}/|zod$)', message: 'shared/ is the domain: it imports zod and its own files only.' };

const ADAPTERS_MESSAGE = 'Only adapters and the composition root (eslint.config.js COMPOSITION_ROOTS) import lambdas/adapters/: import the port from lambdas/ports/ and name it in the function\'s ports.';
const ADAPTERS = { group: ['**/adapters', '**/adapters/**'], message: ADAPTERS_MESSAGE };
/** no-restricted-imports does not see import(); the composition root loads adapters that way. */
const NO_DYNAMIC_ADAPTERS = ['error', { selector: 'ImportExpression[source.value=/(^|\\/)adapters\\//]', message: ADAPTERS_MESSAGE }];

/**
 * The one file that builds adapters and hands them to the code that uses them: every Lambda asks
 * it for the ports it names (docs/architecture.md "Layers"). It is the only lambdas/ file that
 * imports adapters.
 */
const COMPOSITION_ROOTS = ['lambdas/composition/ports-from-env.ts'];

/** Anything but a sibling port, shared/ or a library's types. */
const PORTS_ONLY = {
  regex: '^(?!\\./[a-z-]+$|\\.\\./\\.\\./shared/|aws-lambda$|aws-jwt-verify/jwt-model$)',
  message: 'lambdas/ports/ imports only shared/, other ports and library types (aws-lambda, aws-jwt-verify/jwt-model).',
};

/** Imports of another feature from a file of `feature`: by a path through features/ or relative from inside it. */
const otherFeatures = (feature) =>
  FEATURES.filter((f) => f !== feature).flatMap((f) => [`**/features/${f}`, `**/features/${f}/**`, `../${f}/**`, `../../${f}/**`, `../../../${f}/**`]);

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'frontend/dist', '.data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Small files and functions: split by concern past these (blank lines and comments not counted).
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { paths: ROUTER_PATHS, patterns: [AWS_SDK, ADAPTERS, LOCAL, NOT_FROM_FRONTEND] }],
    },
  },
  {
    files: ['frontend/src/lib/**/*.{ts,tsx}', 'frontend/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ROUTER_PATHS, patterns: [AWS_SDK, ADAPTERS, LOCAL, NOT_FROM_FRONTEND, { group: ['**/features', '**/features/**'], message: 'frontend lib/ and components/ are below the features: they never import one.' }] },
      ],
    },
  },
  {
    // The dev server proxies to the local stack's ports.
    files: ['frontend/vite.config.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [AWS_SDK, ADAPTERS, NOT_FROM_FRONTEND] }] },
  },
  ...FEATURES.map((feature) => ({
    files: [`frontend/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ROUTER_PATHS, patterns: [AWS_SDK, ADAPTERS, LOCAL, NOT_FROM_FRONTEND, { group: otherFeatures(feature), message: `A feature does not import another feature: move what ${feature} shares to frontend/src/components or frontend/src/lib.` }] },
      ],
    },
  })),
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SHARED_ALLOWED,
            { group: ['**/lambdas', '**/lambdas/**', '**/frontend', '**/frontend/**', '**/local', '**/local/**', '**/cdk', '**/cdk/**'], message: 'shared/ imports nothing of lambdas/, frontend/, local/ or cdk/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/adapters/**', 'lambdas/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [AWS_SDK, ADAPTERS, LOCAL, NOT_FROM_LAMBDAS] }], 'no-restricted-syntax': NO_DYNAMIC_ADAPTERS },
  },
  {
    files: ['lambdas/adapters/**/*.ts'],
    ignores: ['lambdas/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [LOCAL, NOT_FROM_LAMBDAS] }] },
  },
  {
    files: COMPOSITION_ROOTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [AWS_SDK, LOCAL, NOT_FROM_LAMBDAS] }], 'no-restricted-syntax': 'off' },
  },
  {
    files: ['lambdas/ports/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PORTS_ONLY] }] },
  },
  {
    files: ['cdk/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_FROM_CDK] }], 'no-restricted-syntax': NO_DYNAMIC_ADAPTERS },
  },
);
