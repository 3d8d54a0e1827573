import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Contract } from '../../shared/api/contract';

/**
 * Answers checked against the committed API reference (docs/openapi.json) with ajv's 2020-12
 * dialect, independently of the zod schemas the document was made from: what an integrator reads
 * is what the API sends. The action's answer schema is found through its endpoint's `x-actions`.
 */
const DOCUMENT_ID = 'https://vatman.invalid/openapi.json';

interface OpenApiPaths {
  readonly paths: Record<string, { post?: { 'x-actions'?: Record<string, { answer: string }> } } | undefined>;
}

export const openApiAnswerValidator = (file = new URL('../../docs/openapi.json', import.meta.url)) => {
  const document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiPaths & { components: unknown };
  // OpenAPI 3.1's base dialect adds these annotation keywords to JSON Schema 2020-12.
  const ajv = new Ajv2020({ allErrors: true, strictTuples: false, strictRequired: false, strictTypes: false });
  addFormats(ajv);
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example', 'x-access', 'components']);
  // Only the components under the document's address, so its `#/components/schemas/…` refs resolve.
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  const compiled = new Map<string, ValidateFunction | string>();

  /** The violations of one 2xx answer body (text as sent): none when it conforms. */
  return (c: Pick<Contract, 'path' | 'type'>, text: string): string[] => {
    const key = `${c.path} ${c.type}`;
    let validate = compiled.get(key);
    if (!validate) {
      const answer = document.paths[c.path]?.post?.['x-actions']?.[c.type]?.answer;
      validate = answer ? (ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${answer}`) ?? `no schema ${answer}`) : 'not in docs/openapi.json (run `npm run openapi`)';
      compiled.set(key, validate);
    }
    if (typeof validate === 'string') return [`${key}: ${validate}`];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${key}: the answer is not JSON: ${text.slice(0, 80)}`];
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${key}: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  };
};
