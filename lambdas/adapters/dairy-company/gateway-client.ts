import { SSMClient } from '@aws-sdk/client-ssm';
import { docketListSchema, gatewayAnswerSchema, gatewayPath, sortDockets } from '../../../shared/dairy-company/payloads';
import { ssmSecret } from '../bot-check/bot-check';
import { optionalEnv, requireEnv } from '../../lib/env';
import { type DairyGatewayClient, GatewayUnavailableError } from '../../ports/dairy';

type Fetch = typeof fetch;
const TIMEOUT_MS = 10_000;

export const makeDairyGatewayClient = (baseUrl: string, token: () => Promise<string>, fetchFn: Fetch = fetch): DairyGatewayClient => {
  const call = async (path: string, init: RequestInit) => {
    let res: Response;
    try {
      res = await fetchFn(`${baseUrl.replace(/\/$/, '')}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${await token()}` },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new GatewayUnavailableError(`dairy gateway unreachable: ${(err as Error).message}`);
    }
    if (res.status >= 500 || res.status === 429) throw new GatewayUnavailableError(`dairy gateway answered ${res.status}`);
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
 * DAIRY_GATEWAY_URL, and the credentials: in AWS the name of an SSM SecureString
 * (DAIRY_GATEWAY_TOKEN_PARAMETER, read at first use and kept while the container lives, never in
 * the environment); the local stack gives its stand-in's token as DAIRY_GATEWAY_TOKEN.
 */
export const dairyGatewayFromEnv = (env: NodeJS.ProcessEnv = process.env): DairyGatewayClient => {
  const url = requireEnv('DAIRY_GATEWAY_URL', env);
  const parameter = optionalEnv('DAIRY_GATEWAY_TOKEN_PARAMETER', env);
  if (parameter) return makeDairyGatewayClient(url, ssmSecret(new SSMClient({ region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' }), parameter));
  const token = requireEnv('DAIRY_GATEWAY_TOKEN', env);
  return makeDairyGatewayClient(url, async () => token);
};
