import { PRE_SIGN_UP_PORTS } from '../ports/function-ports';
import { envAtImport, lazyHandler } from '../lib/lazy-handler';

const env = envAtImport();

/** Cognito PreSignUp trigger entry: the bot-check on every self-service sign-up (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ portsFromEnv }, { signUpBotCheck }] = await Promise.all([import('../composition/ports-from-env'), import('./sign-up-bot-check')]);
  const ports = portsFromEnv(env);
  await ports.load(PRE_SIGN_UP_PORTS);
  return signUpBotCheck(ports.botCheck);
});
