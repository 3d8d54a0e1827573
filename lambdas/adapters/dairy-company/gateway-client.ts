import { SSMClient } from '@aws-sdk/client-ssm';
import { docketListSchema, gatewayAnswerSchema, gatewayPath, sortDockets } from '../../../shared/dairy-company/payloads';
import { ssmSecret } from '../bot-check/bot-check';
import { optionalEnv, requireEnv } from '../../lib/env';
import { type DairyGatewayClient, GatewayUnavailableError, RETRIED_STATUSES } from '../../ports/dairy';
import { instrumented } from '../aws-client';

type Fetch = typeof fetch;
const TIMEOUT_MS = 10_000;

/** The bearer token; `fresh` reads it again from its source instead of the copy kept. */
type GatewayToken = (fresh?: boolean) => Promise<string>;

export const makeDairyGatewayClient = (baseUrl: string, token: GatewayToken, fetchFn: Fetch = fetch): DairyGatewayClient => {
  // A 401 or 403 means the kept token was rotated or expired: the next try reads it again.
  let stale = false;
  const call = async (path: string, init: RequestInit) => {
    let res: Response;
    try {
      const bearer = await token(stale);
      stale = false;
      res = await fetchFn(`${baseUrl.replace(/\/$/, '')}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${bearer}` },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new GatewayUnavailableError(`dairy gateway unreachable: ${(err as Error).message}`);
    }
    if (res.status === 401 || res.status === 403) {
      stale = true;
      throw new GatewayUnavailableError(`dairy gateway refused the token (${res.status}); it is read again before the next try`, res.status);
    }
    if (res.status >= 500 || RETRIED_STATUSES.includes(res.status)) throw new GatewayUnavailableError(`dairy gateway answered ${res.status}`, res.status);
    return res;
  };
  return {
    async send(kind, supplierId, body, idempotencyKey) {
      const res = await call(gatewayPath(supplierId, kind), {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      });
      const parsed = gatewayAnswerSchema.safeParse(await res.json().catch(() => undefined));
      if (!parsed.success) throw new GatewayUnavailableError(`dairy gateway answered ${res.status} without {code, message}`);
      return { status: res.status, answer: parsed.data };
    },
    async dockets(supplierId, from, to) {
      const res = await call(`${gatewayPath(supplierId, 'dockets')}?${new URLSearchParams({ from, to })}`, { method: 'GET', headers: {} });
      if (!res.ok) throw new Error(`dairy gateway dockets answered ${res.status}`);
      return sortDockets(docketListSchema.parse(await res.json()));
    },
  };
};

/**
 * DAIRY_GATEWAY_URL, and the credentials: the name of an SSM SecureString
 * (DAIRY_GATEWAY_TOKEN_PARAMETER, never the token in the environment), read at first use and kept
 * until the gateway refuses it (401/403), then read again: rotating the token is a new value of
 * the parameter, no deploy. Locally SSM_ENDPOINT points at the SSM stand-in (local/stand-ins/ssm.ts).
 */
export const dairyGatewayFromEnv = (env: NodeJS.ProcessEnv = process.env): DairyGatewayClient => {
  const url = requireEnv('DAIRY_GATEWAY_URL', env);
  const parameter = requireEnv('DAIRY_GATEWAY_TOKEN_PARAMETER', env);
  const endpoint = optionalEnv('SSM_ENDPOINT', env);
  const client = instrumented(new SSMClient({ region: optionalEnv('AWS_REGION', env) ?? 'us-east-1', ...(endpoint ? { endpoint } : {}) }));
  return makeDairyGatewayClient(url, ssmSecret(client, parameter));
};
