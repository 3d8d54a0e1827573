import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ENDPOINTS, type Endpoint } from '../../shared/api/endpoints';
import { API_RATE_PER_IP, API_THROTTLE } from '../../shared/api/throttle';
import { flattenClaimsLikeHttpApi } from '../../lambdas/lib/caller';
import type { TokenVerifier } from '../../lambdas/ports/cognito';

export type ApiLambda = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

interface GatewayOptions {
  readonly port: number;
  /** The route's Lambda, loaded on first use (a cold start reads its configuration then). */
  readonly loadHandler: (endpoint: Endpoint) => Promise<ApiLambda>;
  /** Stands in for the HTTP API JWT authorizer: the same verification the Lambdas use. */
  readonly verifier: TokenVerifier;
  readonly throttle?: { rateLimit: number; burstLimit: number };
  /** The per-IP limit of the WAF web ACL in AWS. @default API_RATE_PER_IP */
  readonly ratePerIp?: { limit: number; windowSeconds: number };
  readonly onError?: (err: unknown) => void;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

/** Token bucket like API Gateway's stage throttling: burst capacity refilled at rate per second. */
export const tokenBucket = ({ rateLimit, burstLimit }: { rateLimit: number; burstLimit: number }, now = () => Date.now()) => {
  let tokens = burstLimit;
  let last = now();
  return () => {
    const t = now();
    tokens = Math.min(burstLimit, tokens + ((t - last) / 1000) * rateLimit);
    last = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
};

/**
 * WAF's rate-based rule per IP: at most `limit` requests from one address in any trailing window
 * of `windowSeconds`; a refused request does not count. Answers whether `ip` may make one more now.
 */
export const perIpWindow = ({ limit, windowSeconds }: { limit: number; windowSeconds: number }, now = () => Date.now()) => {
  // Each address's accepted times, oldest first: the expired ones are dropped from the front, so
  // a lifted limit (a load run's hundreds of thousands) costs what has expired, not the window.
  const seen = new Map<string, number[]>();
  return (ip: string): boolean => {
    const t = now();
    const recent = seen.get(ip) ?? [];
    let expired = 0;
    while (expired < recent.length && (recent[expired] ?? 0) <= t - windowSeconds * 1000) expired += 1;
    if (expired > 0) recent.splice(0, expired);
    seen.set(ip, recent);
    if (recent.length >= limit) return false;
    recent.push(t);
    // Addresses gone quiet are forgotten, so the map stays as small as the window's callers.
    if (seen.size > 1000) for (const [key, times] of seen) if ((times.at(-1) ?? 0) <= t - windowSeconds * 1000) seen.delete(key);
    return true;
  };
};

/**
 * The gateway's limits from the environment `npm start` runs in, for a load run on this machine
 * only (AWS reads neither: its WAF rule and stage throttle come from shared/api/throttle.ts):
 * `API_RATE_PER_IP` requests from one address per API_RATE_PER_IP.windowSeconds, and
 * `API_THROTTLE_RATE` requests a second for the stage (burst twice that). Unset, the defaults hold.
 */
export const gatewayLimitsFromEnv = (env: NodeJS.ProcessEnv): Pick<GatewayOptions, 'ratePerIp' | 'throttle'> => {
  const count = (key: string): number | undefined => {
    const raw = env[key];
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${key}=${raw} is not a whole number of requests (1 or more).`);
    return n;
  };
  const perIp = count('API_RATE_PER_IP');
  const rate = count('API_THROTTLE_RATE');
  return {
    ...(perIp === undefined ? {} : { ratePerIp: { limit: perIp, windowSeconds: API_RATE_PER_IP.windowSeconds } }),
    ...(rate === undefined ? {} : { throttle: { rateLimit: rate, burstLimit: 2 * rate } }),
  };
};

const readBody = (req: IncomingMessage, limit = 10 * 1024 * 1024) =>
  new Promise<Buffer>((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(new Error('Request body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** HTTP API passes text bodies as they are and base64-encodes the rest (multipart forms among them). */
const isTextBody = (contentType: string): boolean => contentType === '' || /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript))/i.test(contentType);

const lambdaContext = (name: string, requestId: string): Context => {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/**
 * API Gateway (HTTP API) stand-in: POST routes of shared/api/endpoints.ts (no CORS: the site serves
 * the API on its own origin, `/api/*`, so the browser never asks across origins), the per-IP
 * limit of the WAF web ACL in front of it, stage throttling, the JWT authorizer on 'jwt' routes, and the payload-2.0 event the Lambdas get
 * in AWS. Answers without a route or token mirror HTTP API's own bodies.
 */
export const startApiGateway = async (options: GatewayOptions): Promise<{ server: Server; url: string }> => {
  const routes = new Map<string, Endpoint>(ENDPOINTS.map((e) => [e.path, e]));
  const handlers = new Map<string, Promise<ApiLambda>>();
  const allow = tokenBucket(options.throttle ?? API_THROTTLE);
  const allowIp = perIpWindow(options.ratePerIp ?? API_RATE_PER_IP);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const endpoint = routes.get(url.pathname.replace(/\/+$/, ''));
    if (!endpoint || req.method !== 'POST') return json(res, 404, { message: 'Not Found' });
    // The edge's per-IP rule answers before the stage throttle, as CloudFront's WAF comes before API Gateway.
    if (!allowIp(req.socket.remoteAddress ?? '127.0.0.1')) return json(res, 429, { message: 'Too Many Requests' });
    if (!allow()) return json(res, 429, { message: 'Too Many Requests' });

    const requestId = randomUUID();
    let authorizer: { jwt: { claims: Record<string, string>; scopes: null } } | undefined;
    if (endpoint.auth === 'jwt') {
      const token = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
      if (!token) return json(res, 401, { message: 'Unauthorized' });
      try {
        authorizer = { jwt: { claims: flattenClaimsLikeHttpApi(await options.verifier.verify(token)), scopes: null } };
      } catch {
        return json(res, 401, { message: 'Unauthorized' });
      }
    }
    const rawBody = await readBody(req);
    const textBody = isTextBody(String(req.headers['content-type'] ?? ''));
    const body = rawBody.toString(textBody ? 'utf8' : 'base64');
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
    );
    const now = new Date();
    const event: APIGatewayProxyEventV2 = {
      version: '2.0',
      routeKey: `POST ${endpoint.path}`,
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      headers,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'local',
        http: { method: 'POST', path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
        requestId,
        routeKey: `POST ${endpoint.path}`,
        stage: '$default',
        time: now.toISOString(),
        timeEpoch: now.getTime(),
        ...(authorizer ? { authorizer } : {}),
      } as APIGatewayProxyEventV2['requestContext'],
      body,
      isBase64Encoded: !textBody,
    };
    let lambda = handlers.get(endpoint.handler);
    if (!lambda) {
      lambda = options.loadHandler(endpoint);
      handlers.set(endpoint.handler, lambda);
    }
    const result = (await (await lambda)(event, lambdaContext(endpoint.handler, requestId))) as APIGatewayProxyStructuredResultV2 | string;
    const structured: APIGatewayProxyStructuredResultV2 = typeof result === 'string' ? { statusCode: 200, body: result } : result;
    // As HTTP API does: a base64 body (a compressed answer, lambdas/lib/compression.ts) goes out as its bytes.
    const out = structured.isBase64Encoded ? Buffer.from(structured.body ?? '', 'base64') : (structured.body ?? '');
    res
      .writeHead(structured.statusCode ?? 200, { ...(structured.headers as Record<string, string> | undefined), 'content-length': String(Buffer.byteLength(out)) })
      .end(out);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.onError?.(err);
      // What API Gateway answers when the integration fails.
      if (!res.headersSent) json(res, 500, { message: 'Internal Server Error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return { server, url: `http://127.0.0.1:${options.port}` };
};
