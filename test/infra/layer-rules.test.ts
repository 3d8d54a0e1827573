import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Each layer rule of docs/architecture.md "Layers", proved against the real eslint.config.js: a
 * line that breaks it, linted as if it were in the folder, must be refused with the rule's
 * message, and a line the layout allows must pass. A rule dropped from the config fails here.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The layer messages (no-restricted-imports, no-restricted-syntax) for `code` placed at `filePath`. */
const layerErrors = async (filePath: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
};

const refused = (filePath: string, code: string, message: RegExp) => async () => {
  const errors = await layerErrors(filePath, code);
  expect(errors, `${filePath}: ${code}`).toHaveLength(1);
  expect(errors[0]).toMatch(message);
};

const allowed = (filePath: string, code: string) => async () => {
  expect(await layerErrors(filePath, code), `${filePath}: ${code}`).toEqual([]);
};

describe('layer rules (eslint.config.js)', () => {
  describe('shared/ is the bottom: zod and its own files only', () => {
    it('refuses a package other than zod', refused('shared/alerts/x.ts', "import x from 'react';", /shared\/ is the domain/));
    it('refuses lambdas/', refused('shared/alerts/x.ts', "import { x } from '../../lambdas/lib/errors';", /shared\//));
    it('refuses frontend/', refused('shared/alerts/x.ts', "import { x } from '../../frontend/src/lib/api-client';", /shared\//));
    it('refuses cdk/', refused('shared/alerts/x.ts', "import { x } from '../../cdk/lib/stage';", /shared\//));
    it('refuses local/', refused('shared/alerts/x.ts', "import { x } from '../../local/tcp-ports';", /shared\//));
    it('allows zod and its own files', allowed('shared/alerts/x.ts', "import * as z from 'zod';\nimport { y } from '../time/local-day';\nconst x = [z, y];"));
  });

  describe('lambdas/ stands on shared/, never on frontend/, local/ or cdk/', () => {
    it('refuses frontend/', refused('lambdas/actions/x.ts', "import { x } from '../../frontend/src/lib/api-client';", /lambdas\/ imports shared\//));
    it('refuses cdk/', refused('lambdas/actions/x.ts', "import { x } from '../../cdk/lib/stage';", /lambdas\/ imports shared\//));
    it('refuses local/', refused('lambdas/actions/x.ts', "import { x } from '../../local/tcp-ports';", /local\/ is the top layer/));
    it('refuses frontend/ from an adapter too', refused('lambdas/adapters/sns/x.ts', "import { x } from '../../../frontend/src/lib/api-client';", /lambdas\/ imports shared\//));
    it('refuses local/ from an adapter too', refused('lambdas/adapters/sns/x.ts', "import { x } from '../../../local/tcp-ports';", /local\/ is the top layer/));
    it('allows shared/ and ports', allowed('lambdas/actions/x.ts', "import { y } from '../../shared/roles';\nimport type { Ports } from '../ports/action-ports';\nconst x: [typeof y, Ports | null] = [y, null];"));
  });

  describe('only adapters and the composition root import adapters; only adapters use @aws-sdk', () => {
    it('refuses an adapter in an action', refused('lambdas/actions/x.ts', "import { x } from '../adapters/dynamodb/query';", /Only adapters and the composition root/));
    it('refuses an adapter loaded with import()', refused('lambdas/actions/x.ts', "const x = () => import('../adapters/dynamodb/query');", /Only adapters and the composition root/));
    it('refuses @aws-sdk outside adapters', refused('lambdas/ingest/x.ts', "import { x } from '@aws-sdk/client-sqs';", /@aws-sdk is for lambdas\/adapters/));
    it('allows @aws-sdk in an adapter', allowed('lambdas/adapters/sqs/x.ts', "import { x } from '@aws-sdk/client-sqs';"));
    it('allows adapters in the composition root', allowed('lambdas/composition/ports-from-env.ts', "const x = () => import('../adapters/dynamodb/query');"));
  });

  describe('lambdas/ports/ is the ground floor', () => {
    it('refuses an adapter', refused('lambdas/ports/x.ts', "import { x } from '../adapters/dynamodb/query';", /lambdas\/ports\/ imports only/));
    it('refuses lambdas/lib', refused('lambdas/ports/x.ts', "import { x } from '../lib/errors';", /lambdas\/ports\/ imports only/));
    it('allows shared/, a sibling port and library types', allowed('lambdas/ports/x.ts', "import type { y } from '../../shared/roles';\nimport type { z } from './farms';\nimport type { Context } from 'aws-lambda';\nconst x: [typeof y, z, Context] | null = null;"));
  });

  describe('frontend/ stands on shared/, never on lambdas/, local/ or cdk/', () => {
    it('refuses lambdas/', refused('frontend/src/app/x.ts', "import { x } from '../../../lambdas/lib/errors';", /frontend\/ imports shared\//));
    it('refuses cdk/', refused('frontend/src/app/x.ts', "import { x } from '../../../cdk/lib/stage';", /frontend\/ imports shared\//));
    it('refuses local/', refused('frontend/src/app/x.ts', "import { x } from '../../../local/tcp-ports';", /local\/ is the top layer/));
    it('refuses @aws-sdk', refused('frontend/src/app/x.ts', "import { x } from '@aws-sdk/client-sqs';", /@aws-sdk is for/));
    it('refuses react-router (one router package)', refused('frontend/src/app/x.ts', "import { x } from 'react-router';", /react-router-dom/));
    it('allows shared/ through @shared', allowed('frontend/src/app/x.ts', "import { x } from '@shared/roles';"));
  });

  describe('frontend lib/ and components/ are below the features; a feature never imports another', () => {
    it('refuses a feature in lib/', refused('frontend/src/lib/x.ts', "import { x } from '../features/alerts/components/alerts-page';", /never import one/));
    it('refuses a feature in components/', refused('frontend/src/components/x.tsx', "import { x } from '../features/alerts/components/alerts-page';", /never import one/));
    it('refuses another feature', refused('frontend/src/features/milking/components/x.tsx', "import { x } from '../../alerts/components/alerts-page';", /A feature does not import another feature/));
    it('allows its own feature, lib/ and components/', allowed('frontend/src/features/milking/components/x.tsx', "import { y } from '../utils/milking-view';\nimport { z } from '../../../lib/api-client';\nimport { w } from '../../../components/dialog';\nconst x = [y, z, w];"));
  });

  describe('cdk/ stands on shared/ and lambdas/ports/ only', () => {
    it('refuses a function\'s code', refused('cdk/lib/x.ts', "import { x } from '../../lambdas/lib/errors';", /cdk\/ imports shared\/ and lambdas\/ports\/ only/));
    it('refuses an adapter', refused('cdk/lib/x.ts', "import { x } from '../../lambdas/adapters/dynamodb/keys';", /cdk\/ imports shared\/ and lambdas\/ports\/ only/));
    it('refuses frontend/', refused('cdk/lib/x.ts', "import { x } from '../../frontend/src/lib/api-client';", /cdk\/ imports shared\/ and lambdas\/ports\/ only/));
    it('refuses local/', refused('cdk/lib/x.ts', "import { x } from '../../local/tcp-ports';", /cdk\/ imports shared\/ and lambdas\/ports\/ only/));
    it('allows shared/ and the ports', allowed('cdk/lib/x.ts', "import { y } from '../../shared/data/tables';\nimport { z } from '../../lambdas/ports/function-ports';\nconst x = [y, z];"));
  });

  describe('local/ on top: tests and bench/ may import anything', () => {
    it('allows a test every layer', allowed('test/integration/x.test.ts', "import { a } from '../../local/tcp-ports';\nimport { b } from '../../lambdas/adapters/dynamodb/query';\nimport { c } from '../../frontend/src/lib/api-client';\nimport { d } from '../../cdk/lib/stage';\nconst x = [a, b, c, d];"));
    it('allows bench/ every layer', allowed('bench/x.ts', "import { a } from '../local/tcp-ports';\nimport { b } from '../lambdas/adapters/dynamodb/query';\nimport { d } from '../cdk/lib/stage';\nconst x = [a, b, d];"));
  });

  it('refuses import cycles and unused exports in `npm run lint`, over every top-level folder', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.lint).toMatch(/npm run lint:cycles/);
    expect(scripts.lint).toMatch(/npm run lint:unused/);
    expect(scripts['lint:cycles']).toMatch(/--exit-code circular:1/);
    for (const folder of ['shared', 'lambdas', 'frontend/src', 'cdk', 'local', 'bench', 'test']) expect(scripts['lint:cycles']).toContain(`"${folder}/**/`);
    expect(scripts['lint:unused']).toMatch(/^knip\b/);
  });
});
