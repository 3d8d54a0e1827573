import { AdminGetUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { TOTP_CONFIRMED_ATTRIBUTE } from '../../../shared/roles';
import { createCognitoClient } from './identity-provider';
import type { TotpStatus } from '../../ports/cognito';

/**
 * Both must hold: Cognito asks for the app at sign-in (UserMFASettingList names SOFTWARE_TOKEN_MFA)
 * and the API recorded its confirmation. An app enabled straight through Cognito's self-service
 * calls, without the emailed confirmation, gives no operator reach.
 */
const cognitoTotpStatus =
  (client: CognitoIdentityProviderClient): TotpStatus =>
  async (userPoolId, username) => {
    const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
    if (!(user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA')) return undefined;
    const confirmedAt = Number(user.UserAttributes?.find((a) => a.Name === `custom:${TOTP_CONFIRMED_ATTRIBUTE}`)?.Value);
    return Number.isFinite(confirmedAt) && confirmedAt > 0 ? confirmedAt : undefined;
  };

/** The pool comes with each trigger event (the function cannot name the pool that names it). */
export const totpStatusFromEnv = (env: NodeJS.ProcessEnv = process.env): TotpStatus => cognitoTotpStatus(createCognitoClient(env));
