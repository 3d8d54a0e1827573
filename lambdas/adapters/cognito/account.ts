import {
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  ChangePasswordCommand,
  GetUserAttributeVerificationCodeCommand,
  VerifyUserAttributeCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { MSG_CURRENT_PASSWORD } from '../../../shared/api/actions/profile';
import { TOTP_CONFIRMED_ATTRIBUTE } from '../../../shared/roles';
import { ValidationError } from '../../lib/errors';
import { requireEnv } from '../../lib/env';
import { isCognitoError, rethrowForCaller } from './errors';
import { createCognitoClient, requestAttributeCode } from './identity-provider';
import type { AccountService } from '../../ports/cognito';

/** ClientMetadata that words the email code as the authenticator's confirmation (lambdas/triggers/cognito-messages.ts). */
const AUTHENTICATOR_PURPOSE = 'authenticator';

const cognitoAccountService = (client: CognitoIdentityProviderClient, userPoolId: string): AccountService => ({
  async sendVerificationCode(accessToken, attribute) {
    try {
      await requestAttributeCode(client, accessToken, attribute);
    } catch (err) {
      rethrowForCaller(err);
    }
  },
  async verifyAttribute(accessToken, attribute, code) {
    try {
      await client.send(new VerifyUserAttributeCommand({ AccessToken: accessToken, AttributeName: attribute, Code: code }));
      return true;
    } catch (err) {
      if (isCognitoError(err, 'CodeMismatchException', 'ExpiredCodeException')) return false;
      return rethrowForCaller(err);
    }
  },
  async changePassword(accessToken, previous, proposed) {
    try {
      await client.send(new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: previous, ProposedPassword: proposed }));
    } catch (err) {
      // AWS answers a wrong current password with NotAuthorized, cognito-local with InvalidPassword
      // ('Invalid password'); a new password the policy refuses is InvalidPassword with the policy's words.
      if (isCognitoError(err, 'NotAuthorizedException')) throw new ValidationError(MSG_CURRENT_PASSWORD);
      if (isCognitoError(err, 'InvalidPasswordException')) {
        const message = (err as Error).message;
        throw new ValidationError(/policy|conform|must/i.test(message) ? message : MSG_CURRENT_PASSWORD);
      }
      rethrowForCaller(err);
    }
  },
  async sendAuthenticatorCode(accessToken) {
    try {
      await client.send(new GetUserAttributeVerificationCodeCommand({ AccessToken: accessToken, AttributeName: 'email', ClientMetadata: { attribute: 'email', purpose: AUTHENTICATOR_PURPOSE } }));
    } catch (err) {
      rethrowForCaller(err);
    }
  },
  async confirmAuthenticator(accessToken, username, code, at) {
    try {
      const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
      if (!(user.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA')) return 'no-app';
      if (!(await this.verifyAttribute(accessToken, 'email', code))) return 'wrong-code';
      const confirmedAt = String(Math.floor(at.getTime() / 1000));
      await client.send(new AdminUpdateUserAttributesCommand({ UserPoolId: userPoolId, Username: username, UserAttributes: [{ Name: `custom:${TOTP_CONFIRMED_ATTRIBUTE}`, Value: confirmedAt }] }));
      await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: username }));
      return 'confirmed';
    } catch (err) {
      return rethrowForCaller(err);
    }
  },
  async contactOf(username) {
    try {
      const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
      const valueOf = (name: string) => user.UserAttributes?.find((a) => a.Name === name)?.Value;
      return { email: valueOf('email'), phone: valueOf('phone_number') };
    } catch (err) {
      return rethrowForCaller(err);
    }
  },
  async updateAttributes(username, { firstName, lastName, phone }) {
    try {
      await client.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: userPoolId,
          Username: username,
          UserAttributes: [
            { Name: 'given_name', Value: firstName },
            { Name: 'family_name', Value: lastName },
            ...(phone ? [{ Name: 'phone_number', Value: phone }, { Name: 'phone_number_verified', Value: 'false' }] : []),
          ],
        }),
      );
    } catch (err) {
      rethrowForCaller(err);
    }
  },
});

export const accountServiceFromEnv = (env: NodeJS.ProcessEnv = process.env): AccountService =>
  cognitoAccountService(createCognitoClient(env), requireEnv('USER_POOL_ID', env));
