import { AdminGetUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { createCognitoClient } from './identity-provider';
import type { TotpStatus } from '../../ports/cognito';

/** AdminGetUser's UserMFASettingList names SOFTWARE_TOKEN_MFA once the app is verified and enabled. */
export const cognitoTotpStatus =
  (client: CognitoIdentityProviderClient): TotpStatus =>
  async (userPoolId, username) => {
    const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
    return (user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');
  };

/** The pool comes with each trigger event (the function cannot name the pool that names it). */
export const totpStatusFromEnv = (env: NodeJS.ProcessEnv = process.env): TotpStatus => cognitoTotpStatus(createCognitoClient(env));
