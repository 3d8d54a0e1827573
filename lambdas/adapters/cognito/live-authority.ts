import { AdminGetUserCommand, AdminListGroupsForUserCommand, GetUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { requireEnv } from '../../lib/env';
import type { LiveAuthority } from '../../ports/live';
import { isCognitoError } from './errors';
import { createCognitoClient } from './identity-provider';

/**
 * Cognito's answers for the live socket's subscriptions: the groups by AdminListGroupsForUser (the
 * token's `username` is the pool's username, which the admin calls take), the account's state by
 * AdminGetUser, and the session by GetUser with the person's own access token, which Cognito
 * refuses once revoked by a sign-out everywhere.
 */
const cognitoLiveAuthority = (client: CognitoIdentityProviderClient, userPoolId: string): LiveAuthority => ({
  async currentGroups(username) {
    try {
      const [user, groups] = await Promise.all([
        client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username })),
        client.send(new AdminListGroupsForUserCommand({ UserPoolId: userPoolId, Username: username, Limit: 60 })),
      ]);
      if (user.Enabled === false) return undefined;
      return (groups.Groups ?? []).flatMap((g) => (g.GroupName ? [g.GroupName] : []));
    } catch (err) {
      if (isCognitoError(err, 'UserNotFoundException')) return undefined;
      throw err;
    }
  },
  async sessionActive(accessToken) {
    try {
      await client.send(new GetUserCommand({ AccessToken: accessToken }));
      return true;
    } catch (err) {
      if (isCognitoError(err, 'NotAuthorizedException')) return false;
      throw err;
    }
  },
});

export const liveAuthorityFromEnv = (env: NodeJS.ProcessEnv = process.env): LiveAuthority => cognitoLiveAuthority(createCognitoClient(env), requireEnv('USER_POOL_ID', env));
