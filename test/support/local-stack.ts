import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PortError } from '../../local/tcp-ports';
import { startLocalStack, type LocalStackOptions } from '../../local/start';
import { DEMO_PASSWORD } from '../../local/seed/demo-data';
import { totpCode } from '../../local/seed/totp';
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
const startOnFreePorts = async (dataDir: string, distDir: string, options: Pick<LocalStackOptions, 'dairySync' | 'watchman' | 'simulator' | 'simulatorBackfillHours'> = {}) => {
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

/**
 * The demo operators' authenticator secrets of the stack this test file started, by email (the
 * seed enrols them; local.json lists them). The sign-in helpers answer the code step from them.
 */
const seededTotpSecrets = new Map<string, string>();
export const seededTotpSecret = (email: string): string | undefined => seededTotpSecrets.get(email.toLowerCase());
/** A secret a test enrolled itself (a new operator), so the helpers answer that account's code step too. */
export const rememberTotpSecret = (email: string, secret: string): void => {
  seededTotpSecrets.set(email.toLowerCase(), secret);
};

/** The local stack on free ports with its own data folder: the real stand-ins, the real SDK. */
export const startTestStack = async (dataDir = mkdtempSync(join(tmpdir(), 'vatman-data-')), distDir = fakeDist(), options: Pick<LocalStackOptions, 'dairySync' | 'watchman' | 'simulator' | 'simulatorBackfillHours'> = {}) => {
  const stack = await startOnFreePorts(dataDir, distDir, options);
  const { facts } = stack;
  for (const a of facts.accounts) if (a.totpSecret) rememberTotpSecret(a.email, a.totpSecret);
  /** A POST with what came over the wire: its bytes as sent (content-length) and its encoding. */
  /** `acceptEncoding`: what the client accepts (by default what a browser sends; fetch decodes br and gzip itself). */
  const postMeasured = async (path: string, fields: Record<string, string>, token?: string, acceptEncoding = 'gzip, deflate, br') => {
    const res = await fetch(`${facts.api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-encoding': acceptEncoding, ...(token ? { authorization: `Bearer ${token}` } : {}) },
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
  /** Signs in through USER_SIGN_IN; an account with an authenticator app answers the code step (USER_SIGN_IN_TOTP) from its known secret. */
  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    let res = await post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email, password }) });
    const challenge = res.body as { challenge?: string; session?: string } | undefined;
    if (res.status === 200 && challenge?.challenge === 'SOFTWARE_TOKEN_MFA') {
      const secret = seededTotpSecret(email);
      if (!secret) throw new Error(`sign-in ${email}: the account asks for an authenticator code and no secret is known for it`);
      res = await post('/api/user', { type: 'USER_SIGN_IN_TOTP', user: JSON.stringify({ email, session: challenge.session, code: totpCode(secret) }) });
    }
    if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { token: string }).token;
  };
  return { ...stack, dataDir, distDir, post, postMeasured, signIn };
};
