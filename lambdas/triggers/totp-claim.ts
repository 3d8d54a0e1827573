import type { PreTokenGenerationTriggerEvent, PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { TOTP_CLAIM } from '../../shared/roles';
import type { TotpStatus } from '../ports/cognito';

type Event = PreTokenGenerationTriggerEvent | PreTokenGenerationV2TriggerEvent;

/**
 * The pre-token-generation trigger: every token Cognito issues (sign-in, MFA answer, refresh)
 * carries TOTP_CLAIM with the time the product confirmed the user's authenticator app, so the
 * operator rule (lambdas/lib/dispatch.ts) can refuse a session that never answered it (see
 * `totpProven`). No confirmed app, no claim. AWS sends the V2 event (version '2', Essentials plan),
 * whose access-token claims the API reads; cognito-local sends V1 (ID token only) and its stand-in
 * copies the claim into the access token (local/stand-ins/cognito-token-claims.mjs).
 */
export const totpClaimTrigger =
  (totpStatus: TotpStatus) =>
  async (event: Event): Promise<Event> => {
    const confirmedAt = await totpStatus(event.userPoolId, event.userName);
    const claims: Record<string, string> = confirmedAt === undefined ? {} : { [TOTP_CLAIM]: String(confirmedAt) };
    if (event.version === '2' || event.version === '3') {
      const v2 = event as PreTokenGenerationV2TriggerEvent;
      v2.response = {
        claimsAndScopeOverrideDetails: {
          idTokenGeneration: { claimsToAddOrOverride: claims },
          accessTokenGeneration: { claimsToAddOrOverride: claims },
        },
      };
      return v2;
    }
    const v1 = event as PreTokenGenerationTriggerEvent;
    v1.response = { claimsOverrideDetails: { claimsToAddOrOverride: claims } };
    return v1;
  };
