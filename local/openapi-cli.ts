import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_CONTRACTS } from '../shared/api/contracts';
import { openApiDocument } from '../shared/api/openapi';
import packageJson from '../package.json' with { type: 'json' };

/**
 * `npm run openapi`: writes the API reference (docs/openapi.json) from the action contracts.
 * shared/api/openapi.test.ts fails while the committed file differs from what this writes.
 */
export const OPENAPI_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

export const openApiText = (): string => `${JSON.stringify(openApiDocument(ALL_CONTRACTS, packageJson.version), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.info(`wrote ${OPENAPI_FILE} (${ALL_CONTRACTS.length} actions)`);
}
