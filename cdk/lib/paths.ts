import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

/** The repository root, found from this file so synth works from any working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The entry file of an API endpoint's Lambda: `lambdas/api/<handler>.ts`. */
export const apiHandlerEntry = (handler: string): string =>
  path.join(REPO_ROOT, 'lambdas', 'api', `${handler}.ts`);
