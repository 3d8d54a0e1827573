import {
  AdminUpdateUserAttributesCommand,
  ChangePasswordCommand,
  VerifyUserAttributeCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { MSG_CURRENT_PASSWORD } from '../../../shared/api/actions/profile';
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
}

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
