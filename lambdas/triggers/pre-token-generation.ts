import { totpStatusFromEnv } from '../adapters/cognito/mfa-status';
import { totpClaimTrigger } from './totp-claim';

/** Cognito PreTokenGeneration trigger entry: the TOTP claim on every token (the user pool in AWS, cognito-local locally). */
export const handler = totpClaimTrigger(totpStatusFromEnv());
