import { createHash, createPublicKey } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createSecureServer } from 'node:http2';
import { localCa } from '../local/stand-ins/local-ca';
import { endToEndHeaders, proxyTo } from '../local/stand-ins/web-hosting';

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
  const pass = proxyTo(upstream);
  let origin = '';
  const server = createSecureServer({ key: keyPem, cert: certPem, allowHTTP1: true }, (req, res) => {
    if ((req.url ?? '/').split('?')[0] !== '/config.json') {
      pass(req, res);
      return;
    }
    void fetch(`${upstream}/config.json`)
      .then(async (answer) => {
        const { liveUrl: _local, ...config } = (await answer.json()) as Record<string, unknown>;
        const body = JSON.stringify({ ...config, apiUrl: origin });
        const headers = endToEndHeaders(Object.fromEntries(answer.headers));
        delete headers['content-length'];
        delete headers['content-encoding'];
        res.writeHead(answer.status, headers).end(body);
      })
      .catch(() => res.writeHead(502).end());
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
