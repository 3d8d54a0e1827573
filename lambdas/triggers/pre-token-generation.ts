import { envAtImport, lazyHandler } from '../lib/lazy-handler';

const env = envAtImport();

/** Cognito PreTokenGeneration trigger entry: the TOTP claim on every token (the user pool in AWS, cognito-local locally). */
export const handler = lazyHandler(async () => {
  const [{ totpStatusFromEnv }, { totpClaimTrigger }] = await Promise.all([import('../adapters/cognito/mfa-status'), import('./totp-claim')]);
  return totpClaimTrigger(totpStatusFromEnv(env));
});
