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
 *    without touching what uses it.
 */
const FEATURES = readdirSync(new URL('./frontend/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const AWS_SDK = { group: ['@aws-sdk/*'], message: '@aws-sdk is for lambdas/adapters/, local/, cdk/, bench/ and tests only.' };

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
      'no-restricted-imports': ['error', { patterns: [AWS_SDK, ADAPTERS] }],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`frontend/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [AWS_SDK, ADAPTERS, { group: otherFeatures(feature), message: `A feature does not import another feature: move what ${feature} shares to frontend/src/components or frontend/src/lib.` }] },
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
            AWS_SDK,
            { group: ['aws-cdk-lib', 'aws-cdk-lib/*', 'react', 'react-*', 'react/*'], message: 'shared/ is the domain: zod and shared files only.' },
            { group: ['**/lambdas', '**/lambdas/**', '**/frontend', '**/frontend/**', '**/local', '**/local/**', '**/cdk', '**/cdk/**'], message: 'shared/ imports nothing of lambdas/, frontend/, local/ or cdk/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/adapters/**', 'lambdas/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [AWS_SDK, ADAPTERS] }], 'no-restricted-syntax': NO_DYNAMIC_ADAPTERS },
  },
  {
    files: COMPOSITION_ROOTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [AWS_SDK] }], 'no-restricted-syntax': 'off' },
  },
  {
    files: ['lambdas/ports/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PORTS_ONLY] }] },
  },
  {
    files: ['cdk/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ADAPTERS] }], 'no-restricted-syntax': NO_DYNAMIC_ADAPTERS },
  },
);
