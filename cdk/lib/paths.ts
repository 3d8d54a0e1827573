import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

/** The repository root, found from this file so synth works from any working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The entry file of an API endpoint's Lambda: `lambdas/api/<handler>.ts`. */
export const apiHandlerEntry = (handler: string): string =>
  path.join(REPO_ROOT, 'lambdas', 'api', `${handler}.ts`);

/** The entry file of a Cognito trigger: `lambdas/triggers/<name>.ts`. */
export const triggerEntry = (name: string): string => path.join(REPO_ROOT, 'lambdas', 'triggers', `${name}.ts`);

/** The entry file of a non-API function: `lambdas/<folder>/handler.ts` (the ingest, …). */
export const functionEntry = (folder: string): string => path.join(REPO_ROOT, 'lambdas', folder, 'handler.ts');
