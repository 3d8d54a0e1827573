import { botCheckFromEnv } from '../adapters/bot-check/bot-check';
import { signUpBotCheck } from './sign-up-bot-check';

/** Cognito PreSignUp trigger entry: the bot-check on every self-service sign-up (the user pool in AWS, cognito-local locally). */
export const handler = signUpBotCheck(botCheckFromEnv());
