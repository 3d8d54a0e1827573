import { PRE_TOKEN_GENERATION_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';

const env = envAtImport();

/** Cognito PreTokenGeneration trigger entry: the TOTP claim on every token (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { totpClaimTrigger }] = await Promise.all([import('../composition/ports-from-env'), import('./totp-claim')]);
  const ports = portsFromEnv(env);
  await ports.load(PRE_TOKEN_GENERATION_PORTS);
  return totpClaimTrigger(ports.totpStatus);
});
