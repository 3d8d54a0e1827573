import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { pickEncoding, type ContentEncoding } from '../../lambdas/lib/compression';
import { spaFallbackUri } from '../../cdk/lib/spa-fallback';
import type { WebConfig } from '../../shared/config';
import { contentSecurityPolicy, SECURITY_HEADERS } from '../../shared/web/security-headers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** S3's answer to a key it does not have when the reader may not list the bucket (CloudFront's origin access control). */
const S3_ACCESS_DENIED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

/** What CloudFront compresses (its list of compressible types, for the ones the build has). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.map', '.txt', '.ico']);
/** CloudFront compresses objects from 1,000 bytes. */
const MIN_COMPRESS_BYTES = 1000;

/**
 * A file as it goes out: its bytes per encoding, made once per version of the file (a rebuild
 * while the stack runs, `npm run build:web`, rewrites index.html in place: its new bytes go out).
 */
const encoder = () => {
  const cache = new Map<string, { readonly version: string; readonly out: Buffer }>();
  return (file: string, { mtimeMs, size }: Stats, encoding: ContentEncoding | undefined): Buffer => {
    const key = `${encoding ?? 'identity'}:${file}`;
    const version = `${mtimeMs}:${size}`;
    const cached = cache.get(key);
    if (cached?.version === version) return cached.out;
    const raw = readFileSync(file);
    const out =
      encoding === 'br'
        ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
        : encoding === 'gzip'
          ? gzipSync(raw, { level: 9 })
          : raw;
    cache.set(key, { version, out });
    return out;
  };
};

/** Where the local stack's herd-site stand-in answers (the herd link and the herd users' unauthorized landing). */
export const HERD_SITE_PATH = '/herd-site/login';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The herd-management site is another product on another host (farmer §1, §2.2). Locally a page
 * stands in for its token login, so the herd link and the herd users' redirect stay on this machine.
 */
const herdSitePage = (token: string | null) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Herd site (local stand-in)</title></head><body><h1>Herd site (local stand-in)</h1><p>${
    token ? `Signed in to the herd site with the token ${escapeHtml(token)}.` : 'No token: the herd site asks you to sign in.'
  }</p><p><a href="/dashboard">Back to Vat-Man</a></p></body></html>`;

/**
 * The sibling live-monitoring site's stand-in (farmer §1: another sub-domain in AWS), so the
 * module dashboard's link leads somewhere locally without reaching the internet.
 */
export const LIVE_MONITORING_SITE_PATH = '/live-monitoring-site/';
const liveMonitoringPage = () =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Live monitoring (local stand-in)</title></head><body><h1>Live monitoring (local stand-in)</h1><p>In AWS this link opens the live-monitoring site configured by <code>-c liveMonitoringUrl</code>.</p><p><a href="/dashboard">Back to Vat-Man</a></p></body></html>';

/** The web distribution's path for the API (cdk/lib/constructs/web.ts `API_PATH_PATTERN`): the app calls its own origin. */
const API_PATH_PREFIX = '/api/';

/** Headers of one connection (and HTTP/2's pseudo-headers), which a proxy does not pass on; Host it sets itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings', 'te', 'host']);
/** A message's headers without those of its connection. */
export const endToEndHeaders = (headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string | string[]] => e[1] !== undefined && !e[0].startsWith(':') && !HOP_BY_HOP.has(e[0].toLowerCase())));

/**
 * The distribution's `/api/*` behaviour: the request as it came (method, headers but Host, body)
 * to the API's origin, and its answer back unchanged (no cache, no compression, no site headers).
 * Also bench:web's HTTP/2 front to this server (bench/h2-front.ts).
 */
export const proxyTo = (origin: string) => {
  const target = new URL(origin);
  const agent = new Agent({ keepAlive: true });
  return (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...endToEndHeaders(req.headers), host: target.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEndHeaders(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Bad Gateway' }));
    });
    req.pipe(upstream);
  };
};

/**
 * S3 + CloudFront stand-in: the Vite build with the SPA fallback (the distribution's own viewer-request
 * function, cdk/lib/spa-fallback.ts: the app's paths get index.html; a file the build lacks gets S3's
 * 403, as a bucket behind origin access control answers a missing key) and the runtime /config.json that the CDK web construct writes in AWS. Like the
 * distribution (compress: true) it answers brotli or gzip per Accept-Encoding, and hashed assets
 * are cached immutable for a year while index.html is revalidated (the web construct's cache-control).
 */
export const startWebHosting = async (
  port: number,
  distDir: string,
  config: WebConfig,
  /** Where `/api/*` goes (the local API Gateway), as the distribution's API behaviour; none: not served. */
  apiOrigin?: string,
): Promise<{ server: Server; url: string }> => {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) throw new Error(`No web build at ${distDir}: run 'npm run build:web' (npm start does it for you).`);
  const root = normalize(distDir) + sep;
  // The same policy CloudFront sends, with the local stack's Cognito origin (and the API's when it
  // is not this server's /api/*).
  const security = {
    ...SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicy({
      ...(apiOrigin ? {} : { api: new URL(config.apiUrl).origin }),
      cognito: config.cognitoEndpoint ? [new URL(config.cognitoEndpoint).origin] : [],
      ...(config.liveUrl ? { live: new URL(config.liveUrl).origin } : {}),
    }),
  };
  const bytesOf = encoder();
  const proxy = apiOrigin ? proxyTo(apiOrigin) : undefined;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (proxy && path.startsWith(API_PATH_PREFIX)) {
      proxy(req, res);
      return;
    }
    if (path === '/config.json') {
      res.writeHead(200, { ...security, 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(config));
      return;
    }
    if (path === HERD_SITE_PATH) {
      const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
      res.writeHead(200, { ...security, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(herdSitePage(token));
      return;
    }
    if (path === LIVE_MONITORING_SITE_PATH) {
      res.writeHead(200, { ...security, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(liveMonitoringPage());
      return;
    }
    const target = normalize(join(distDir, spaFallbackUri(path)));
    // One look at the file per request: whether it is there, whether to compress, which version to send.
    const stat = target.startsWith(root) ? statSync(target, { throwIfNoEntry: false }) : undefined;
    if (!stat?.isFile()) {
      res.writeHead(403, { 'content-type': 'application/xml' }).end(req.method === 'HEAD' ? undefined : S3_ACCESS_DENIED);
      return;
    }
    // Vite's hashed file names change with their content: cached for a year, never revalidated.
    const hashed = target.includes(`${sep}assets${sep}`);
    const compressible = COMPRESSIBLE.has(extname(target)) && stat.size >= MIN_COMPRESS_BYTES;
    const encoding = compressible ? pickEncoding(req.headers['accept-encoding']) : undefined;
    const body = bytesOf(target, stat, encoding);
    res
      .writeHead(200, {
        ...security,
        'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
        'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...(compressible ? { vary: 'accept-encoding' } : {}),
        ...(encoding ? { 'content-encoding': encoding } : {}),
        'content-length': String(body.length),
      })
      .end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, url: `http://localhost:${port}` };
};
