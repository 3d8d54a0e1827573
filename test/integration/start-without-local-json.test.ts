import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../local/seed/demo-data';
import { totpCode } from '../../local/seed/totp';
import { fakeDist, startTestStack } from '../support/local-stack';

/**
 * `.data/local.json` is a report of the last start, not state: a start with it deleted and the rest
 * of the data folder kept must come up, and the demo operators sign in with the authenticator
 * secrets the Cognito data still holds (the ones the banner prints), with no hand-made repair.
 */
describe('npm start after .data/local.json is deleted', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vatman-no-facts-'));
  const distDir = fakeDist();
  let stop: (() => Promise<void>) | undefined;
  afterAll(async () => stop?.());

  it('comes up with the same demo operators, each signing in with a code from the secret it prints', async () => {
    const first = await startTestStack(dataDir, distDir);
    stop = first.stop;
    const secretsBefore = Object.fromEntries(first.facts.accounts.map((a) => [a.email, a.totpSecret]));
    await first.stop();
    stop = undefined;
    rmSync(join(dataDir, 'local.json'));

    const second = await startTestStack(dataDir, distDir);
    stop = second.stop;
    expect(existsSync(join(dataDir, 'local.json'))).toBe(true);
    const operators = DEMO_ACCOUNTS.filter((a) => a.group);
    expect(operators.length).toBeGreaterThan(0);
    for (const { email } of operators) {
      const secret = second.facts.accounts.find((a) => a.email === email)?.totpSecret;
      expect(secret, email).toBeTruthy();
      expect(secret).toBe(secretsBefore[email]);
      const step = await second.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email, password: DEMO_PASSWORD }) });
      const { challenge, session } = step.body as { challenge?: string; session?: string };
      expect(challenge, email).toBe('SOFTWARE_TOKEN_MFA');
      const signedIn = await second.post('/api/user', { type: 'USER_SIGN_IN_TOTP', user: JSON.stringify({ email, session, code: totpCode(secret as string) }) });
      expect(signedIn.status, `${email}: ${JSON.stringify(signedIn.body)}`).toBe(200);
      expect((signedIn.body as { token?: string }).token).toBeTruthy();
    }
    // The farmer has no authenticator app: a password is all it takes.
    const farmer = await second.post('/api/user', { type: 'USER_SIGN_IN', user: JSON.stringify({ email: 'farmer@vatman.local', password: DEMO_PASSWORD }) });
    expect((farmer.body as { token?: string }).token).toBeTruthy();
  }, 180_000);
});
