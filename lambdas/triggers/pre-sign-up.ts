import type { PortName } from '../ports/action-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';

const env = envAtImport();

/** What the trigger uses: loaded at its cold start, granted by the stack (cdk/lib/vat-man-stack.ts). */
export const PRE_SIGN_UP_PORTS = ['botCheck'] as const satisfies readonly PortName[];

/** Cognito PreSignUp trigger entry: the bot-check on every self-service sign-up (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { signUpBotCheck }] = await Promise.all([import('../composition/ports-from-env'), import('./sign-up-bot-check')]);
  const ports = portsFromEnv(env);
  await ports.load(PRE_SIGN_UP_PORTS);
  return signUpBotCheck(ports.botCheck);
});
