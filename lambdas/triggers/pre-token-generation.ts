import type { PortName } from '../ports/action-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();

/** What the trigger uses: loaded at its cold start, granted by the stack (cdk/lib/vat-man-stack.ts). */
export const PRE_TOKEN_GENERATION_PORTS = ['totpStatus'] as const satisfies readonly PortName[];

/** Cognito PreTokenGeneration trigger entry: the TOTP claim on every token (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { totpClaimTrigger }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./totp-claim'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(PRE_TOKEN_GENERATION_PORTS);
  return observe(createLogger({ function: 'pre-token-generation' }), totpClaimTrigger(ports.totpStatus));
});
