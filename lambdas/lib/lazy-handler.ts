import type { EndpointPath } from '../../shared/api/endpoints';
import type { ServedAction } from './dispatch';

/**
 * A Lambda handler whose code loads on its first invocation (module init ≤ 100 ms).
 * The entry file imports only this; the handler's modules (its actions, their zod schemas, the
 * repositories and the AWS SDK clients they `require`) come in by a dynamic import that esbuild
 * keeps lazy inside the one CommonJS bundle (cdk/lib/constructs/vat-man-function.ts
 * HANDLER_BUNDLING). A load that failed is tried again on the next invocation. `ready` loads
 * without invoking (the bench times it).
 */
export const lazyHandler = <A extends unknown[], R>(load: () => Promise<(...args: A) => Promise<R>>) => {
  let loading: Promise<(...args: A) => Promise<R>> | undefined;
  const ready = () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  return Object.assign(async (...args: A): Promise<R> => (await ready())(...args), { ready });
};

/**
 * The environment as the entry module saw it when it was imported: a handler built later reads
 * this copy (the local stack imports one entry per stack, each after setting that stack's
 * variables, while the lazily loaded modules are shared).
 */
export const envAtImport = (): NodeJS.ProcessEnv => ({ ...process.env });

/**
 * An API endpoint's Lambda (lambdas/lib/api-handler.ts) with its actions loaded on first use.
 * `loadHandlers` is exposed so a test checks each entry serves exactly its path's contracts
 * (lambdas/api/actions-by-endpoint.test.ts), which the Lambda no longer checks at cold start:
 * that check loads every endpoint's schemas.
 */
export const lazyApiHandler = (path: EndpointPath, loadHandlers: () => Promise<readonly ServedAction[]>) => {
  const env = envAtImport();
  const handler = lazyHandler(async () => {
    const [{ apiHandler }, actions] = await Promise.all([import('./api-handler'), loadHandlers()]);
    return apiHandler(path, actions, undefined, env);
  });
  return Object.assign(handler, { loadHandlers });
};
