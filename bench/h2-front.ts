import { createHash, createPublicKey } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { createSecureServer } from 'node:http2';
import { localCa } from '../local/stand-ins/local-ca';

/** Headers of one connection that HTTP/2 forbids or the front sets itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings', 'te', 'host']);

/**
 * `bench:web`'s HTTPS front: what CloudFront gives a phone, HTTP/2 over TLS (the distribution is
 * `HTTP2_AND_3`), in front of the local static server, which speaks HTTP/1.1 only (browsers use
 * HTTP/2 only over TLS). Without it Lighthouse's simulation queues the dashboard's 38 scripts on 6
 * HTTP/1.1 connections to one host, which no phone does against CloudFront; with it, one TLS
 * connection (its handshake counted) carries them all. Every request and answer passes unchanged
 * (compression, caching headers, the CSP), except `config.json`, whose addresses name the front
 * (the page is https, so an http API address would be mixed content) and which leaves out the
 * local live socket (a ws:// address is refused on an https page; in AWS it is the site's own
 * wss://…/live, after the first paint). The certificate is the local CA's for localhost; Chromium
 * trusts its key by `--ignore-certificate-errors-spki-list` (`chromiumArg`).
 */
export const startH2Front = async (upstream: string, caDir: string) => {
  const { certPem, keyPem } = localCa(caDir).issueServer();
  const spki = createHash('sha256').update(createPublicKey(certPem).export({ type: 'spki', format: 'der' })).digest('base64');
  const up = new URL(upstream);
  let origin = '';
  const server = createSecureServer({ key: keyPem, cert: certPem, allowHTTP1: true }, (req, res) => {
    const path = req.url ?? '/';
    const isConfig = path.split('?')[0] === '/config.json';
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !k.startsWith(':') && !HOP_BY_HOP.has(k)));
    if (isConfig) headers['accept-encoding'] = 'identity';
    const out = request({ host: up.hostname, port: up.port, path, method: req.method, headers: { ...headers, host: up.host } }, (answer) => {
      const answerHeaders = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
      if (!isConfig || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const { liveUrl: _local, ...config } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const body = Buffer.from(JSON.stringify({ ...config, apiUrl: origin }));
        res.writeHead(200, { ...answerHeaders, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    /** Chromium's switch that trusts the front's certificate (by its key), and nothing else. */
    chromiumArg: `--ignore-certificate-errors-spki-list=${spki}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
