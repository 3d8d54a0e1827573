import { endpointByPath } from '../../shared/api/endpoints';
import { defaultDeps, type Deps } from './deps';
import { dispatch, type ActionDef } from './dispatch';
import { http } from './http';
import { createLogger } from './logger';

export type Actions = Readonly<Record<string, ActionDef<Deps>>>;

/**
 * The Lambda for one endpoint path of spec §7: the shared middy stack around a dispatch on
 * `type`. Deps default to the real adapters, built at cold start so missing configuration
 * fails at once; tests pass their own.
 */
export const apiHandler = (path: string, actions: Actions, deps: Deps = defaultDeps()) => {
  const endpoint = endpointByPath(path);
  if (!endpoint) throw new Error(`No endpoint ${path} in shared/api/endpoints.ts`);
  const log = createLogger({ endpoint: path });
  return http(
    dispatch({ auth: endpoint.auth, actions, deps, log, verifier: endpoint.auth === 'public' ? deps.verifier : undefined }),
    log,
  );
};
