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
import { ThrottledError, UnauthorizedError, ValidationError } from '../../lib/errors';
import { requireEnv } from '../../lib/env';
import { createCognitoClient, requestAttributeCode, TOO_MANY_ATTEMPTS } from './identity-provider';

/** The attributes a person verifies with a code (farmer §2.10): email by a link, phone by a text. */
export type VerifiedAttribute = 'email' | 'phone_number';

/**
 * The signed-in person's own Cognito account (farmer §2.10). Codes, checks and the password
 * change act with the person's access token (Cognito's self-service calls, no IAM permission);
 * only the name and phone are written with the admin call, as the API's role.
 */
export interface AccountService {
  /** Cognito sends the code: by email (the CustomMessage trigger makes it a link) or by text. */
  sendVerificationCode(accessToken: string, attribute: VerifiedAttribute): Promise<void>;
  /** true when Cognito accepted the code (the attribute is verified there), false when it did not. */
  verifyAttribute(accessToken: string, attribute: VerifiedAttribute, code: string): Promise<boolean>;
  changePassword(accessToken: string, previous: string, proposed: string): Promise<void>;
  /** Names and phone; a new phone is unverified until its code is checked. */
  updateAttributes(username: string, change: { firstName: string; lastName: string; phone?: string }): Promise<void>;
  /** Emails a code to the person's address, worded as the authenticator app's confirmation (AUTHENTICATOR_PURPOSE). */
  sendAuthenticatorCode(accessToken: string): Promise<void>;
  /**
   * With the emailed code: records the time (Unix seconds) the authenticator app was confirmed,
   * which the pre-token-generation trigger puts in every later token, then revokes every refresh
   * token of the person, so no session from before can carry the claim. 'no-app' when Cognito does
   * not ask for an app at sign-in; 'wrong-code' when the code is not the one emailed (nothing changed).
   */
  confirmAuthenticator(accessToken: string, username: string, code: string, at: Date): Promise<'confirmed' | 'wrong-code' | 'no-app'>;
}

/** ClientMetadata that words the email code as the authenticator's confirmation (lambdas/triggers/cognito-messages.ts). */
export const AUTHENTICATOR_PURPOSE = 'authenticator';

const nameOf = (err: unknown) => (err as { name?: string }).name ?? '';
const THROTTLED = new Set(['LimitExceededException', 'TooManyRequestsException', 'TooManyFailedAttemptsException']);

/** A token Cognito refuses (revoked, signed out elsewhere) is a signed-out caller: 401, as the spec's shells expect. */
const rethrow = (err: unknown): never => {
  if (THROTTLED.has(nameOf(err))) throw new ThrottledError(TOO_MANY_ATTEMPTS);
  if (nameOf(err) === 'NotAuthorizedException') throw new UnauthorizedError();
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
