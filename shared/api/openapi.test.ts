import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { OPENAPI_FILE, openApiText } from '../../local/openapi-cli';
import { access, contract } from './contract';
import { ALL_CONTRACTS } from './contracts';
import { jsonField } from './fields';
import { openApiDocument } from './openapi';

/** The API reference (docs/openapi.json): made from the contracts, committed fresh, and lint-clean. */
describe('docs/openapi.json', () => {
  it('is what `npm run openapi` writes from the contracts (regenerate it after changing an action)', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    expect(committed === openApiText(), 'docs/openapi.json is stale: run `npm run openapi` and commit it').toBe(true);
  });

  it('has every declared action under its path, with its access rule as x-access and in words', () => {
    const doc = openApiDocument(ALL_CONTRACTS, '0');
    const missing = ALL_CONTRACTS.filter((c) => {
      const action = (doc.paths[c.path]?.post['x-actions'] as Record<string, { schema: string; 'x-access': unknown }> | undefined)?.[c.type];
      const schema = action && doc.components.schemas[action.schema];
      return !schema || JSON.stringify(action['x-access']) !== JSON.stringify(c.access) || JSON.stringify(schema['x-access']) !== JSON.stringify(c.access) || !String(schema.description).startsWith('**Access:**');
    });
    expect(missing.map((c) => `${c.path} ${c.type}`)).toEqual([]);
  });

  it('picks up a new contract by itself, its JSON field as JSON text with the value schema, its answer as a schema of its own', () => {
    const added = contract({
      path: '/api/admin/device',
      type: 'EXAMPLE_NEW_ACTION',
      input: z.object({ type: z.literal('EXAMPLE_NEW_ACTION'), item: jsonField(z.object({ vat: z.number().int() }), 'item') }),
      answer: z.object({ done: z.boolean() }),
      access: access.operator('Installer'),
    });
    const doc = openApiDocument([...ALL_CONTRACTS, added], '0');
    const body = (doc.paths['/api/admin/device']?.post.requestBody as { content: Record<string, { schema: { oneOf: { $ref: string }[] } }> }).content['application/x-www-form-urlencoded'];
    expect(body?.schema.oneOf).toContainEqual({ $ref: '#/components/schemas/EXAMPLE_NEW_ACTION' });
    expect(doc.components.schemas.EXAMPLE_NEW_ACTION?.properties).toMatchObject({
      item: { type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object', properties: { vat: { type: 'integer' } }, required: ['vat'] } },
    });
    expect(doc.components.schemas['EXAMPLE_NEW_ACTION.answer']).toMatchObject({ type: 'object', properties: { done: { type: 'boolean' } } });
    expect(doc.components.schemas.EXAMPLE_NEW_ACTION?.['x-access']).toEqual({ kind: 'operator', groups: ['Installer'] });
  });

  it('passes the OpenAPI linter (`npm run openapi:lint`, Redocly recommended rules) with 0 errors', async () => {
    const run = promisify(execFile);
    // Exits non-zero on any error; its output says where.
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'openapi:lint'], { cwd: new URL('../..', import.meta.url).pathname });
    expect(`${stdout}${stderr}`).toContain('Your API description is valid');
  }, 120_000);
});
