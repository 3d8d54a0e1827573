import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebConfig } from '../../shared/config';
import { startWebHosting } from './web-hosting';

/** Raw bytes and headers, without fetch's own decoding, so what is on the wire is what is checked. */
const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });

const SCRIPT = `export const text = ${JSON.stringify('vat '.repeat(2000))};`;

describe('the static web server (S3 + CloudFront stand-in)', () => {
  let base = '';
  let dist = '';
  let close: () => void = () => undefined;
  /** What the API's stand-in received through the web server's `/api/*`. */
  const received: { method?: string; url?: string; host?: string; authorization?: string; body: string }[] = [];
  beforeAll(async () => {
    const api = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, host: req.headers.host, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
        res.writeHead(403, { 'content-type': 'application/json', 'x-api': 'yes' }).end('{"message":"Forbidden"}');
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    dist = mkdtempSync(join(tmpdir(), 'vatman-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), `<!doctype html><html><head><title>Vat-Man</title></head><body>${'<div></div>'.repeat(200)}</body></html>`);
    writeFileSync(join(dist, 'assets', 'index-AbC123.js'), SCRIPT);
    writeFileSync(join(dist, 'assets', 'tiny-AbC123.js'), 'export {};');
    const config = { apiUrl: 'http://127.0.0.1:1', cognitoEndpoint: 'http://127.0.0.1:2' } as WebConfig;
    const { server } = await startWebHosting(0, dist, config, apiOrigin);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => {
      server.close();
      api.close();
    };
  });
  afterAll(() => close());

  it('answers brotli to a browser and gzip to a gzip-only client, the bytes decoding to the file', async () => {
    const br = await get(`${base}/assets/index-AbC123.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 10);
    const gz = await get(`${base}/assets/index-AbC123.js`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    const plain = await get(`${base}/assets/index-AbC123.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('serves index.html anew after a rebuild rewrites it while the server runs, in every encoding', async () => {
    const page = (script: string) => `<!doctype html><html><head><script type="module" src="/assets/${script}"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`;
    writeFileSync(join(dist, 'index.html'), page('index-Old111.js'));
    expect(brotliDecompressSync((await get(`${base}/`, { 'accept-encoding': 'br' })).body).toString()).toContain('index-Old111.js');
    expect(gunzipSync((await get(`${base}/`, { 'accept-encoding': 'gzip' })).body).toString()).toContain('index-Old111.js');
    writeFileSync(join(dist, 'index.html'), page('index-New2222.js'));
    expect(brotliDecompressSync((await get(`${base}/`, { 'accept-encoding': 'br' })).body).toString()).toContain('index-New2222.js');
    expect(gunzipSync((await get(`${base}/`, { 'accept-encoding': 'gzip' })).body).toString()).toContain('index-New2222.js');
    expect((await get(`${base}/`)).body.toString()).toContain('index-New2222.js');
  });

  it('caches hashed assets immutable for a year and revalidates index.html (also as the SPA fallback)', async () => {
    expect((await get(`${base}/assets/index-AbC123.js`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/dts/dashboard']) {
      const page = await get(`${base}${path}`, { 'accept-encoding': 'br' });
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(page.body).toString()).toMatch(/^<!doctype html>/);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    }
  });

  it("answers a file the build lacks with S3's 403, not the app's page, and the app's paths with dots with the page", async () => {
    const gone = await get(`${base}/assets/index-Gone99.js`);
    expect(gone.status).toBe(403);
    expect(gone.headers['content-type']).toBe('application/xml');
    expect(gone.body.toString()).toContain('<Code>AccessDenied</Code>');
    const deep = await get(`${base}/dts/password/reset/a.b.c`);
    expect(deep.status).toBe(200);
    expect(deep.body.toString()).toMatch(/^<!doctype html>/);
  });

  it('sends files under 1,000 bytes as they are, as CloudFront does', async () => {
    const tiny = await get(`${base}/assets/tiny-AbC123.js`, { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};');
  });

  it("passes /api/* to the API's origin as it came and its answer back unchanged (an error stays an error, not the SPA page)", async () => {
    const answer = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const req = request(`${base}/api/farmer/dashboard?x=1`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end('type=FARMER_DASHBOARD_LAST');
    });
    expect(answer).toMatchObject({ status: 403, body: '{"message":"Forbidden"}' });
    expect(answer.headers['x-api']).toBe('yes');
    expect(answer.headers['content-security-policy']).toBeUndefined();
    expect(received.at(-1)).toEqual({ method: 'POST', url: '/api/farmer/dashboard?x=1', host: expect.not.stringContaining(base.replace('http://', '')), authorization: 'Bearer t', body: 'type=FARMER_DASHBOARD_LAST' });
  });
});
