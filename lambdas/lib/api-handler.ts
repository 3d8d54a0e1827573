import { contractsOf } from '../../shared/api/contracts';
import { endpointByPath, type EndpointPath } from '../../shared/api/endpoints';
import { dispatch, type ServedAction } from './dispatch';
import { http } from './http';
import { createLogger } from './logger';
import { lazyPorts, type Ports } from './ports';

/** Throws unless `actions` serve exactly the contracts declared for `path`, each once. */
export const checkServes = (path: EndpointPath, actions: readonly ServedAction[]): void => {
  const served = new Set(actions.map((a) => a.contract));
  const stray = actions.filter((a) => a.contract.path !== path).map((a) => a.contract.type);
  const missing = contractsOf(path).filter((c) => !served.has(c)).map((c) => c.type);
  const twice = served.size !== actions.length;
  if (stray.length || missing.length || twice) {
    throw new Error(`${path}: serves ${stray.join(', ') || 'nothing'} of another path; declared but not served: ${missing.join(', ') || 'none'}${twice ? '; a contract served twice' : ''}`);
  }
};

/**
 * The Lambda for one endpoint path of spec §7: the shared middy stack around a dispatch on
 * `type`. Its entry (lambdas/api/<handler>.ts) loads it on first use (lambdas/lib/lazy-handler.ts);
 * that each entry serves exactly the contracts declared for its path is checked by
 * lambdas/api/actions-by-endpoint.test.ts, not at cold start (the check loads every contract).
 * Ports are built lazily from the environment, each call loading the ones it names; tests pass their own.
 */
export const apiHandler = (path: EndpointPath, actions: readonly ServedAction[], ports?: Ports, env: NodeJS.ProcessEnv = process.env) => {
  const endpoint = endpointByPath(path);
  if (!endpoint) throw new Error(`No endpoint ${path} in shared/api/endpoints.ts`);
  const log = createLogger({ endpoint: path });
  const lazy = ports ? undefined : lazyPorts();
  return http(dispatch({ auth: endpoint.auth, actions, ports: ports ?? (lazy as Ports), ...(lazy ? { loadPorts: lazy.load } : {}), log, checkAnswers: env.CHECK_ANSWERS === '1' }), log);
};
