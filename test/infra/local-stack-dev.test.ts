import { createServer as createHttpServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { localStackDev } from '../../frontend/build/local-stack-dev';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('npm run dev:web in front of a running local stack', () => {
  let site: Server;
  let vite: ViteDevServer;
  let dev: string;
  const calls: string[] = [];

  beforeAll(async () => {
    // The local web stand-in's two answers the dev server relies on.
    site = createHttpServer((req, res) => {
      calls.push(`${req.method} ${req.url}`);
      if (req.url === '/config.json') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiUrl: 'http://localhost:3000', region: 'local' }));
      else res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Forbidden"}');
    });
    const origin = await listen(site);
    const root = mkdtempSync(join(tmpdir(), 'vatman-dev-web-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
    vite = await createServer({ configFile: false, root, logLevel: 'silent', plugins: [localStackDev(origin)], server: { port: 0, host: '127.0.0.1' } });
    await vite.listen();
    dev = `http://127.0.0.1:${(vite.httpServer?.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await vite.close();
    site.close();
  });

  it("serves the stack's config.json with the API on the dev server's own origin", async () => {
    const answer = await fetch(`${dev}/config.json`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ apiUrl: dev, region: 'local' });
  });

  it("passes /api/* to the stack's web origin and its answer back as it came", async () => {
    const answer = await fetch(`${dev}/api/user`, { method: 'POST', body: 'type=USER_GET' });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ message: 'Forbidden' });
    expect(calls).toContain('POST /api/user');
  });

  it('answers 502 with what to do when no stack is running', async () => {
    site.close();
    site.closeAllConnections();
    const answer = await fetch(`${dev}/config.json`);
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { message: string }).message).toMatch(/run npm start first/);
  });
});
