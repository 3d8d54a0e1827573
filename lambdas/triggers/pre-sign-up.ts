import { PRE_SIGN_UP_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';
import { createLogger } from '../lib/logger';

const env = envAtImport();

/** Cognito PreSignUp trigger entry: the bot-check on every self-service sign-up (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { signUpBotCheck }, { observe }] = await Promise.all([import('../composition/ports-from-env'), import('./sign-up-bot-check'), import('../lib/observe')]);
  const ports = portsFromEnv(env);
  await ports.load(PRE_SIGN_UP_PORTS);
  return observe(createLogger({ function: 'pre-sign-up' }), signUpBotCheck(ports.botCheck));
});
