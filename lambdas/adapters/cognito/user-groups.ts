import {
  AdminAddUserToGroupCommand,
  AdminRemoveUserFromGroupCommand,
  ListUsersInGroupCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { OPERATOR_GROUPS, type OperatorGroup } from '../../../shared/roles';
import { requireEnv } from '../../lib/env';
import { createCognitoClient } from './identity-provider';
import type { UserGroups } from '../../ports/cognito';

/**
 * The members of each operator group, four ListUsersInGroup queries (60 a page) rather than an
 * AdminListGroupsForUser per user: the user list stays four requests for any number of users,
 * and cognito-local's AdminListGroupsForUser only finds members named by their stored username.
 */
const cognitoUserGroups = (client: CognitoIdentityProviderClient, userPoolId: string): UserGroups => ({
  async memberships() {
    const byUser = new Map<string, OperatorGroup[]>();
    await Promise.all(
      OPERATOR_GROUPS.map(async (group) => {
        let NextToken: string | undefined;
        do {
          const page = await client.send(new ListUsersInGroupCommand({ UserPoolId: userPoolId, GroupName: group, Limit: 60, NextToken }));
          for (const u of page.Users ?? []) {
            const sub = u.Attributes?.find((a) => a.Name === 'sub')?.Value ?? u.Username;
            if (sub) byUser.set(sub, [...(byUser.get(sub) ?? []), group]);
          }
          NextToken = page.NextToken;
        } while (NextToken);
      }),
    );
    // The groups in OPERATOR_GROUPS order, whatever order the queries answered in.
    for (const [sub, groups] of byUser) byUser.set(sub, OPERATOR_GROUPS.filter((g) => groups.includes(g)));
    return byUser;
  },
  async add(userId, group) {
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: userId, GroupName: group }));
  },
  async remove(userId, group) {
    await client.send(new AdminRemoveUserFromGroupCommand({ UserPoolId: userPoolId, Username: userId, GroupName: group }));
  },
});

export const userGroupsFromEnv = (env: NodeJS.ProcessEnv = process.env): UserGroups =>
  cognitoUserGroups(createCognitoClient(env), requireEnv('USER_POOL_ID', env));
