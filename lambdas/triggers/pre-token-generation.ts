import { PRE_TOKEN_GENERATION_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();

/** Cognito PreTokenGeneration trigger entry: the TOTP claim on every token (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { totpClaimTrigger }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./totp-claim'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(PRE_TOKEN_GENERATION_PORTS);
  return observe(createLogger({ function: 'pre-token-generation' }), totpClaimTrigger(ports.totpStatus));
});
