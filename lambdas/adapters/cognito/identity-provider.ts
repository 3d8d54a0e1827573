import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  GetUserAttributeVerificationCodeCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { MSG_PHONE_REQUIRED, MSG_RESET_LINK, MSG_TOTP_CODE } from '../../../shared/api/actions/user';
import { ValidationError } from '../../lib/errors';
import { cognitoErrorName, isCognitoError, throwIfThrottled } from './errors';
import { BOT_CHECK_FAILED, BOT_CHECK_FIELD, BOT_CHECK_STALE } from '../../ports/bot-check';
import { optionalEnv, requireEnv } from '../../lib/env';
import type { Tokens, IdentityProvider } from '../../ports/cognito';
import { instrumented } from '../aws-client';

/**
 * Asks Cognito to send the person a verification code for one of their attributes (the CustomMessage
 * trigger words an email's as a link to the profile page, a phone's as a text). Authorized by their
 * own access token, no IAM. The attribute also rides in ClientMetadata, which reaches the trigger
 * (the local stack reads it there: cognito-local sends every code by email).
 */
export const requestAttributeCode = (client: CognitoIdentityProviderClient, accessToken: string, attribute: 'email' | 'phone_number') =>
  client.send(new GetUserAttributeVerificationCodeCommand({ AccessToken: accessToken, AttributeName: attribute, ClientMetadata: { attribute } }));

const EMAIL_TAKEN = 'An account with this email already exists. Please sign in.';

const WRONG_CREDENTIALS = 'Incorrect email or password.';

/**
 * cognito-local answers a wrong password with InvalidPasswordException where AWS answers
 * NotAuthorizedException; an unknown email is UserNotFoundException (or NotAuthorized when
 * the pool hides user existence). All mean the same to a person signing in.
 */
const CREDENTIAL_ERRORS = new Set(['NotAuthorizedException', 'InvalidPasswordException', 'UserNotFoundException']);

export const createCognitoClient = (env: NodeJS.ProcessEnv = process.env) => {
  const endpoint = optionalEnv('COGNITO_ENDPOINT', env);
  return instrumented(
    new CognitoIdentityProviderClient({
      ...(endpoint ? { endpoint } : {}),
      region: optionalEnv('AWS_REGION', env) ?? 'us-east-1',
    }),
  );
};

export const cognitoIdentityProvider = (
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  clientId: string,
): IdentityProvider => ({
  async signIn(email, password) {
    try {
      const res = await client.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      );
      if (res.ChallengeName === 'SOFTWARE_TOKEN_MFA' && res.Session) return { challenge: 'SOFTWARE_TOKEN_MFA', session: res.Session };
      return tokensOf(res.AuthenticationResult);
    } catch (err) {
      if (CREDENTIAL_ERRORS.has(cognitoErrorName(err))) throw new ValidationError(WRONG_CREDENTIALS);
      throw err;
    }
  },
  async answerTotp(email, session, code) {
    try {
      const res = await client.send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: session,
          ChallengeResponses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
      return tokensOf(res.AuthenticationResult);
    } catch (err) {
      // A wrong or stale code, or a session that expired (3 minutes): sign in again.
      if (isCognitoError(err, 'CodeMismatchException', 'ExpiredCodeException', 'NotAuthorizedException', 'InvalidPasswordException')) throw new ValidationError(MSG_TOTP_CODE);
      throwIfThrottled(err);
      throw err;
    }
  },
  async signUp(account, botCheckAnswer) {
    // The admin API, not the client's SignUp: the web app client may not write email or phone
    // (shared/roles.ts). AdminCreateUser runs the pre-sign-up trigger too (PreSignUp_AdminCreateUser),
    // which checks the bot-check answer it finds here; the temporary password is the person's own,
    // so the pool's password policy refuses a weak one before any account exists.
    let created = false;
    try {
      const res = await client.send(
        new AdminCreateUserCommand({
          UserPoolId: userPoolId,
          Username: account.email,
          TemporaryPassword: account.password,
          MessageAction: 'SUPPRESS',
          ValidationData: [{ Name: BOT_CHECK_FIELD, Value: botCheckAnswer }],
          ClientMetadata: { [BOT_CHECK_FIELD]: botCheckAnswer },
          UserAttributes: [
            { Name: 'email', Value: account.email },
            { Name: 'given_name', Value: account.firstName },
            { Name: 'family_name', Value: account.lastName },
            { Name: 'phone_number', Value: account.phone },
          ],
        }),
      );
      const sub = res.User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
      if (!sub) throw new Error('Cognito AdminCreateUser answered without a sub');
      created = true;
      // A permanent password makes the account CONFIRMED, as AdminConfirmSignUp did after SignUp.
      await client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: account.email, Password: account.password, Permanent: true }));
      return sub;
    } catch (err) {
      // An account left waiting for a password change would hold the email: the person could
      // neither sign in nor sign up again.
      if (created) await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: account.email })).catch(() => undefined);
      if (isCognitoError(err, 'UsernameExistsException')) throw new ValidationError(EMAIL_TAKEN);
      // The pre-sign-up trigger refused the bot-check: its words, which the web app reads (reload for a fresh check).
      if (isCognitoError(err, 'UserLambdaValidationException')) throw new ValidationError((err as Error).message.includes(BOT_CHECK_STALE) ? BOT_CHECK_STALE : BOT_CHECK_FAILED);
      if (isCognitoError(err, 'InvalidPasswordException')) throw new ValidationError((err as Error).message);
      if (isCognitoError(err, 'InvalidParameterException') && /phone/i.test((err as Error).message)) throw new ValidationError(MSG_PHONE_REQUIRED);
      throwIfThrottled(err);
      throw err;
    }
  },
  async removeAccount(email) {
    await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: email }));
  },
  async sendEmailVerification(accessToken) {
    await requestAttributeCode(client, accessToken, 'email');
  },
  async forgotPassword(email) {
    try {
      await client.send(new ForgotPasswordCommand({ ClientId: clientId, Username: email }));
    } catch (err) {
      if (isCognitoError(err, 'UserNotFoundException')) return;
      // An account whose email is not verified gets no reset code (Cognito refuses to send to an
      // unverified address); the answer is the same 'success', so nothing is revealed.
      if (isCognitoError(err, 'InvalidParameterException') && /verified/i.test((err as Error).message)) return;
      throwIfThrottled(err);
      throw err;
    }
  },
  async resetPassword(email, code, newPassword) {
    try {
      await client.send(new ConfirmForgotPasswordCommand({ ClientId: clientId, Username: email, ConfirmationCode: code, Password: newPassword }));
    } catch (err) {
      if (isCognitoError(err, 'CodeMismatchException', 'ExpiredCodeException', 'UserNotFoundException')) throw new ValidationError(MSG_RESET_LINK);
      if (isCognitoError(err, 'InvalidPasswordException')) throw new ValidationError((err as Error).message);
      throwIfThrottled(err);
      throw err;
    }
  },
});

const tokensOf = (r: { AccessToken?: string; IdToken?: string; RefreshToken?: string } | undefined): Tokens => {
  if (!r?.AccessToken || !r.IdToken) throw new ValidationError(WRONG_CREDENTIALS);
  return { accessToken: r.AccessToken, idToken: r.IdToken, refreshToken: r.RefreshToken };
};

export const identityProviderFromEnv = (env: NodeJS.ProcessEnv = process.env): IdentityProvider =>
  cognitoIdentityProvider(createCognitoClient(env), requireEnv('USER_POOL_ID', env), requireEnv('USER_POOL_CLIENT_ID', env));
