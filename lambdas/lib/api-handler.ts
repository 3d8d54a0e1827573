import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { endpointByPath, type EndpointPath } from '../../shared/api/endpoints';
import { dispatch, type ServedAction } from './dispatch';
import { http } from './http';
import { createLogger } from './logger';
import { metrics } from './metrics';
import { traceClient, tracer } from './tracing';
import type { Ports } from '../ports/action-ports';
import { portsFromEnv } from '../composition/ports-from-env';

/**
 * The Lambda for one endpoint path of spec §7: the shared middy stack around a dispatch on
 * `type`. Its entry (lambdas/api/<handler>.ts) loads it on first use (lambdas/lib/lazy-handler.ts);
 * that each entry serves exactly the contracts declared for its path is checked by
 * lambdas/api/actions-by-endpoint.test.ts (checkServes), not at cold start nor in the bundle: the
 * check loads every endpoint's contracts.
 * Ports are built lazily from the environment, each call loading the ones it names; tests pass their own.
 * Observability (Powertools): the request id, cold start and function name on the log lines, the
 * metrics flushed per invocation, the invocation and its AWS SDK calls traced (only in Lambda; the
 * answer is not put in the trace: a range answer would outgrow X-Ray's segment).
 */
export const apiHandler = (path: EndpointPath, actions: readonly ServedAction[], ports?: Ports, env: NodeJS.ProcessEnv = process.env) => {
  const endpoint = endpointByPath(path);
  if (!endpoint) throw new Error(`No endpoint ${path} in shared/api/endpoints.ts`);
  const log = createLogger({ endpoint: path });
  const lazy = ports ? undefined : portsFromEnv(process.env, {}, { instrumentClient: traceClient });
  return http(
    dispatch({ auth: endpoint.auth, actions, ports: ports ?? (lazy as Ports), ...(lazy ? { loadPorts: lazy.load } : {}), log, checkAnswers: env.CHECK_ANSWERS === '1' }),
    log,
    env.ORIGIN_VERIFY,
    [injectLambdaContext(log.powertools), logMetrics(metrics), captureLambdaHandler(tracer, { captureResponse: false })],
  );
};
