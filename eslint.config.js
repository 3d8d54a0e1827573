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
 *  - @aws-sdk/* only in lambdas/adapters/, local/, cdk/, bench/ and tests.
 */
const FEATURES = readdirSync(new URL('./frontend/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const AWS_SDK = { group: ['@aws-sdk/*'], message: '@aws-sdk is for lambdas/adapters/, local/, cdk/, bench/ and tests only.' };

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
      'no-restricted-imports': ['error', { patterns: [AWS_SDK] }],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`frontend/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [AWS_SDK, { group: otherFeatures(feature), message: `A feature does not import another feature: move what ${feature} shares to frontend/src/components or frontend/src/lib.` }] },
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
    rules: { 'no-restricted-imports': ['error', { patterns: [AWS_SDK] }] },
  },
);
