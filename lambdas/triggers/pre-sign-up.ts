import type { PortName } from '../ports/action-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();

/** What the trigger uses: loaded at its cold start, granted by the stack (cdk/lib/vat-man-stack.ts). */
export const PRE_SIGN_UP_PORTS = ['botCheck'] as const satisfies readonly PortName[];

/** Cognito PreSignUp trigger entry: the bot-check on every self-service sign-up (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { signUpBotCheck }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./sign-up-bot-check'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(PRE_SIGN_UP_PORTS);
  return observe(createLogger({ function: 'pre-sign-up' }), signUpBotCheck(ports.botCheck));
});
