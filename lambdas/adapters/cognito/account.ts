import {
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  ChangePasswordCommand,
  GetUserAttributeVerificationCodeCommand,
  VerifyUserAttributeCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { MSG_CURRENT_PASSWORD, MSG_SIGN_IN_AGAIN } from '../../../shared/api/actions/profile';
import { TOTP_CONFIRMED_ATTRIBUTE } from '../../../shared/roles';
import { ThrottledError, UnauthorizedError, ValidationError } from '../../lib/errors';
import { requireEnv } from '../../lib/env';
import { createCognitoClient, requestAttributeCode, TOO_MANY_ATTEMPTS } from './identity-provider';
import type { AccountService } from '../../ports/cognito';

/** ClientMetadata that words the email code as the authenticator's confirmation (lambdas/triggers/cognito-messages.ts). */
export const AUTHENTICATOR_PURPOSE = 'authenticator';

const nameOf = (err: unknown) => (err as { name?: string }).name ?? '';
const THROTTLED = new Set(['LimitExceededException', 'TooManyRequestsException', 'TooManyFailedAttemptsException']);
/**
 * A token Cognito will not act on: revoked or signed out elsewhere (NotAuthorized), or one it does
 * not know as an access token of this pool (ResourceNotFound, as cognito-local answers an ID token
 * where AWS answers NotAuthorized).
 */
const SIGNED_OUT = new Set(['NotAuthorizedException', 'ResourceNotFoundException']);

/** Cognito's refusals as the API answers them: a signed-out caller is a 401, as the spec's shells expect; too many requests a 429. */
const rethrow = (err: unknown): never => {
  if (THROTTLED.has(nameOf(err))) throw new ThrottledError(TOO_MANY_ATTEMPTS);
  if (SIGNED_OUT.has(nameOf(err))) throw new UnauthorizedError(MSG_SIGN_IN_AGAIN);
  throw err;
};

export const cognitoAccountService = (client: CognitoIdentityProviderClient, userPoolId: string): AccountService => ({
  async sendVerificationCode(accessToken, attribute) {
    try {
      await requestAttributeCode(client, accessToken, attribute);
    } catch (err) {
      rethrow(err);
    }
  },
  async verifyAttribute(accessToken, attribute, code) {
    try {
      await client.send(new VerifyUserAttributeCommand({ AccessToken: accessToken, AttributeName: attribute, Code: code }));
      return true;
    } catch (err) {
      if (['CodeMismatchException', 'ExpiredCodeException'].includes(nameOf(err))) return false;
      return rethrow(err);
    }
  },
  async changePassword(accessToken, previous, proposed) {
    try {
      await client.send(new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: previous, ProposedPassword: proposed }));
    } catch (err) {
      // AWS answers a wrong current password with NotAuthorized, cognito-local with InvalidPassword
      // ('Invalid password'); a new password the policy refuses is InvalidPassword with the policy's words.
      if (nameOf(err) === 'NotAuthorizedException') throw new ValidationError(MSG_CURRENT_PASSWORD);
      if (nameOf(err) === 'InvalidPasswordException') {
        const message = (err as Error).message;
        throw new ValidationError(/policy|conform|must/i.test(message) ? message : MSG_CURRENT_PASSWORD);
      }
      rethrow(err);
    }
  },
  async sendAuthenticatorCode(accessToken) {
    try {
      await client.send(new GetUserAttributeVerificationCodeCommand({ AccessToken: accessToken, AttributeName: 'email', ClientMetadata: { attribute: 'email', purpose: AUTHENTICATOR_PURPOSE } }));
    } catch (err) {
      rethrow(err);
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
      return rethrow(err);
    }
  },
  async contactOf(username) {
    try {
      const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
      const valueOf = (name: string) => user.UserAttributes?.find((a) => a.Name === name)?.Value;
      return { email: valueOf('email'), phone: valueOf('phone_number') };
    } catch (err) {
      return rethrow(err);
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
      rethrow(err);
    }
  },
});

export const accountServiceFromEnv = (env: NodeJS.ProcessEnv = process.env): AccountService =>
  cognitoAccountService(createCognitoClient(env), requireEnv('USER_POOL_ID', env));
