import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortError } from '../../local/ports';
import { startLocalStack, type LocalStackOptions } from '../../local/start';
import { DEMO_PASSWORD } from '../../local/seed/demo-data';
import { useFreePorts } from './free-port';

/** A throwaway web build, so API tests need no Vite build. */
export const fakeDist = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vatman-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Vat-Man</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  return dir;
};

/**
 * Another test process may take a chosen port before this stack listens on it (both saw it
 * free): then the start fails, closes what it opened, and is tried again on other ports.
 */
const startOnFreePorts = async (dataDir: string, distDir: string, options: Pick<LocalStackOptions, 'dairySync'> = {}) => {
  for (let attempt = 1; ; attempt += 1) {
    await useFreePorts();
    try {
      return await startLocalStack({ dataDir, distDir, ...options });
    } catch (err) {
      const clash = err instanceof PortError || (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!clash || attempt >= 3) throw err;
    }
  }
};

/** The local stack on free ports with its own data folder: the real stand-ins, the real SDK. */
export const startTestStack = async (dataDir = mkdtempSync(join(tmpdir(), 'vatman-data-')), distDir = fakeDist(), options: Pick<LocalStackOptions, 'dairySync'> = {}) => {
  const stack = await startOnFreePorts(dataDir, distDir, options);
  const { facts } = stack;
  /** A POST with what came over the wire: its bytes as sent (content-length) and its encoding. */
  const postMeasured = async (path: string, fields: Record<string, string>, token?: string) => {
    const res = await fetch(`${facts.api}${path}`, {
      method: 'POST',
      // What a browser sends: fetch decodes br and gzip itself.
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-encoding': 'gzip, deflate, br', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
    const text = await res.text();
    const wireBytes = Number(res.headers.get('content-length') ?? Buffer.byteLength(text));
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, wireBytes, contentEncoding: res.headers.get('content-encoding') };
  };
  const post = async (path: string, fields: Record<string, string>, token?: string) => {
    const { status, body } = await postMeasured(path, fields, token);
    return { status, body };
  };
  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const res = await post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email, password }) });
    if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { token: string }).token;
  };
  return { ...stack, dataDir, distDir, post, postMeasured, signIn };
};
