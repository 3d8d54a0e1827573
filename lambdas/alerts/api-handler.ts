import { endpointByPath } from '../../shared/api/endpoints';
import { dispatch, type ActionDef } from '../lib/dispatch';
import { http } from '../lib/http';
import { createLogger } from '../lib/logger';
import { alertDepsFromEnv, type AlertDeps } from './deps';

/** apiHandler (lambdas/lib/api-handler.ts) for the endpoints whose actions use the alert ports. */
export const alertApiHandler = (path: string, actions: Readonly<Record<string, ActionDef<AlertDeps>>>, deps: AlertDeps = alertDepsFromEnv()) => {
  const endpoint = endpointByPath(path);
  if (!endpoint) throw new Error(`No endpoint ${path} in shared/api/endpoints.ts`);
  const log = createLogger({ endpoint: path });
  return http(dispatch({ auth: endpoint.auth, actions, deps, log, verifier: endpoint.auth === 'public' ? deps.verifier : undefined }), log);
};
