import type { PreTokenGenerationTriggerEvent, PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { TOTP_CLAIM } from '../../shared/roles';
import type { TotpStatus } from '../ports/cognito';

type Event = PreTokenGenerationTriggerEvent | PreTokenGenerationV2TriggerEvent;

/**
 * The pre-token-generation trigger (issue 13): every token Cognito issues (sign-in, MFA answer,
 * refresh) carries TOTP_CLAIM, 'true' when the user has an authenticator app enabled, so the
 * operator rule (lambdas/lib/dispatch.ts) can refuse operators without one. AWS sends the V2
 * event (version '2', Essentials plan), whose access-token claims the API reads; cognito-local
 * sends V1 (ID token only) and its stand-in copies the claim into the access token
 * (local/stand-ins/cognito-token-claims.mjs).
 */
export const totpClaimTrigger =
  (totpStatus: TotpStatus) =>
  async (event: Event): Promise<Event> => {
    const claims = { [TOTP_CLAIM]: String(await totpStatus(event.userPoolId, event.userName)) };
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
