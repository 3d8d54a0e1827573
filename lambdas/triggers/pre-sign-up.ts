import { envAtImport, lazyHandler } from '../lib/lazy-handler';

const env = envAtImport();

/** Cognito PreSignUp trigger entry: the bot-check on every self-service sign-up (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ botCheckFromEnv }, { signUpBotCheck }] = await Promise.all([import('../adapters/bot-check/bot-check'), import('./sign-up-bot-check')]);
  return signUpBotCheck(botCheckFromEnv(env));
});
