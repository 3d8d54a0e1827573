import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import type { OperatorGroup } from '../../shared/roles';

export interface Tokens {
  readonly accessToken: string;
  readonly idToken: string;
  readonly refreshToken?: string;
}

/** Cognito as the identity store: the port the user endpoint uses. */
interface NewAccount {
  readonly email: string;
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
  /** E.164 */
  readonly phone: string;
}

/** Cognito wants the authenticator app's code (an account with TOTP enrolled): answer it with `session`. */
interface TotpChallenge {
  readonly challenge: 'SOFTWARE_TOKEN_MFA';
  readonly session: string;
}

export interface IdentityProvider {
  signIn(email: string, password: string): Promise<Tokens | TotpChallenge>;
  /** The sign-in's second step: the code for the challenge `session` of signIn. */
  answerTotp(email: string, session: string, code: string): Promise<Tokens>;
  /**
   * Creates and confirms the account (the spec signs a new user straight in); returns its sub.
   * `botCheckAnswer` goes to Cognito, whose pre-sign-up trigger checks it (lambdas/triggers/sign-up-bot-check.ts).
   */
  signUp(account: NewAccount, botCheckAnswer: string): Promise<string>;
  /** Deletes an account signUp made, when the rest of the sign-up failed: the email is free for a retry. */
  removeAccount(email: string): Promise<void>;
  /** Sends the new account's email its verification link (the address is unverified until it is followed). */
  sendEmailVerification(accessToken: string): Promise<void>;
  /** Sends the reset code by email. An unknown email is not an error (nothing is revealed). */
  forgotPassword(email: string): Promise<void>;
  resetPassword(email: string, code: string, newPassword: string): Promise<void>;
}

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
  /** The account's email and phone as Cognito holds them now (read with the admin API, not the person's token). */
  contactOf(username: string): Promise<{ email?: string; phone?: string }>;
  /** Names and phone; a new phone is unverified until its code is checked. */
  updateAttributes(username: string, change: { firstName: string; lastName: string; phone?: string }): Promise<void>;
  /** Emails a code to the person's address, worded as the authenticator app's confirmation. */
  sendAuthenticatorCode(accessToken: string): Promise<void>;
  /**
   * With the emailed code: records the time (Unix seconds) the authenticator app was confirmed,
   * which the pre-token-generation trigger puts in every later token, then revokes every refresh
   * token of the person, so no session from before can carry the claim. 'no-app' when Cognito does
   * not ask for an app at sign-in; 'wrong-code' when the code is not the one emailed (nothing changed).
   */
  confirmAuthenticator(accessToken: string, username: string, code: string, at: Date): Promise<'confirmed' | 'wrong-code' | 'no-app'>;
}

/**
 * Cognito group membership: the only source of a user's role (shared/roles.ts). Users are named
 * by their sub: the pool signs in by email, so Cognito's username is the sub, and the Admin calls
 * accept it (cognito-local finds a user by sub too).
 */
export interface UserGroups {
  /** Every member of the operator groups: sub → their groups. A user in none is absent. */
  memberships(): Promise<Map<string, OperatorGroup[]>>;
  add(userId: string, group: OperatorGroup): Promise<void>;
  remove(userId: string, group: OperatorGroup): Promise<void>;
}

/**
 * When the user's authenticator app was confirmed by the product (Unix seconds), or undefined
 * while they have none enabled or have not confirmed it: the pre-token-generation trigger's one question.
 */
export type TotpStatus = (userPoolId: string, username: string) => Promise<number | undefined>;

/**
 * Verifies a Cognito bearer token exactly as API Gateway's HTTP API JWT authorizer does:
 * signature against the pool's JWKS, issuer, expiry (and nbf/iat), and the audience list
 * matched against `aud` or, for access tokens that have no `aud`, against `client_id`.
 * The /api/user Lambda uses it for its signed-in types (its route is public) and the local
 * gateway uses it to stand in for the authorizer, so both judge a token the same way.
 */
export interface TokenVerifier {
  verify(token: string): Promise<JwtPayload>;
}
