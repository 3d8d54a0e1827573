import * as z from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, PHONE_MIN } from '../../constants';
import { farmSchema } from '../../entities/farm';
import { organizationTagSchema } from '../../entities/organization';
import { userSchema } from '../../entities/user';
import { access, contract } from '../contract';
import * as startUp from './start-up';
import { boolField, ID_MAX, jsonField } from '../fields';

/** Farmer spec §5 messages: the client shows the first; the server answers the same words. */
export const MSG_EMAIL = 'Please enter a correct email address';
export const MSG_PASSWORD_REQUIRED = 'Please enter password';
export const MSG_PASSWORD_LENGTH = 'Password must be 8-50';
export const MSG_PHONE_REQUIRED = 'Please enter your phone number';
export const MSG_PHONE_LENGTH = 'Phone number at least 9';
/** The spec marks the names required without a message; these are ours. */
export const MSG_FIRST_NAME = 'Please enter your first name';
export const MSG_LAST_NAME = 'Please enter your last name';
/** Ours: a name is refused outside these characters (names reach HTML email, so no markup). */
export const MSG_NAME_CHARACTERS = 'Names may contain letters, spaces, hyphens and apostrophes.';
export const MSG_RESET_LINK = 'This reset link is not valid. Please request a new one.';
/** The sign-in's code step (operators sign in with an authenticator app). */
/** Cognito throttled the person (codes, failed attempts or the API's rate): the API's 429 and the sign-in form say the same. */
export const MSG_TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again in a few minutes.';
export const MSG_TOTP_CODE = 'That code is not valid. Enter the current 6-digit code from your authenticator app.';

/** An authenticator app's code: 6 digits (RFC 6238 as Cognito checks it). */
export const totpCodeField = z.string({ error: MSG_TOTP_CODE }).trim().regex(/^\d{6}$/, MSG_TOTP_CODE);

const emailField = z.string({ error: MSG_EMAIL }).trim().max(254, MSG_EMAIL).pipe(z.email({ error: MSG_EMAIL }));

/** Sign-in needs a password, no length rule (existing passwords may predate it). */
const loginPasswordField = z.string({ error: MSG_PASSWORD_REQUIRED }).min(1, MSG_PASSWORD_REQUIRED).max(256, 'Incorrect email or password.');

/** Sign-up and reset: required, 8 to 50 characters. */
export const newPasswordField = z
  .string({ error: MSG_PASSWORD_REQUIRED })
  .min(1, MSG_PASSWORD_REQUIRED)
  .min(PASSWORD_MIN, MSG_PASSWORD_LENGTH)
  .max(PASSWORD_MAX, MSG_PASSWORD_LENGTH);

export const phoneField = z
  .string({ error: MSG_PHONE_REQUIRED })
  .trim()
  .min(1, MSG_PHONE_REQUIRED)
  .min(PHONE_MIN, MSG_PHONE_LENGTH)
  .max(30, MSG_PHONE_REQUIRED)
  .regex(/^[+\d][\d\s()-]*$/, MSG_PHONE_REQUIRED);

/**
 * Letters of any alphabet (with their combining marks), spaces, dots, straight and typographic
 * apostrophes and hyphens: "Mere Te Kōhanga", "Zoë O’Brien-Smith", "J. R.". Names are greeted in
 * Cognito's HTML emails, so no `<`, `&` or quotes that markup needs.
 */
const NAME_PATTERN = /^[\p{L}\p{M} .'’-]+$/u;

/** A first or last name: required (with the form's own message), at most 100 characters, letters and the like. */
export const nameField = (required: string) =>
  z
    .string({ error: required })
    .trim()
    // One message per field: an empty or overlong name is told that, not the characters as well.
    .min(1, { error: required, abort: true })
    .max(100, { error: required, abort: true })
    .regex(NAME_PATTERN, MSG_NAME_CHARACTERS);

/** The sign-up form (farmer §2.1, §5), in the order the form checks it: first error wins. */
export const signUpUserSchema = z.object({
  firstName: nameField(MSG_FIRST_NAME),
  lastName: nameField(MSG_LAST_NAME),
  email: emailField,
  phone: phoneField,
  password: newPasswordField,
});
export type SignUpUser = z.infer<typeof signUpUserSchema>;

export const signInUserSchema = z.object({ email: emailField, password: loginPasswordField, remember: boolField.optional() });
export const forgotUserSchema = z.object({ email: emailField });
/** The sign-in's second step: the challenge session USER_SIGN_IN answered and the app's code. */
const signInTotpUserSchema = z.object({ email: emailField, session: z.string({ error: MSG_TOTP_CODE }).min(1, MSG_TOTP_CODE).max(4_000, MSG_TOTP_CODE), code: totpCodeField });
export const resetUserSchema = z.object({
  password: newPasswordField,
  token: z.string({ error: MSG_RESET_LINK }).min(1, MSG_RESET_LINK).max(1_000, MSG_RESET_LINK),
});

/** The bot-check widget's answer (spec §7); may be empty where the check is off. */
const botCheck = z.string({ error: 'gRecaptchaResponse must be text' }).max(8_000, 'gRecaptchaResponse is not valid').optional().default('');

/** /api/user (farmer spec §7). */
const userInputs = {
  USER_ONE_GET_BY_TOKEN: z.object({ type: z.literal('USER_ONE_GET_BY_TOKEN'), farm: z.string({ error: 'farm is not valid' }).max(ID_MAX, 'farm is not valid').optional() }),
  USER_CHECK_LOGIN_STATUS: z.object({ type: z.literal('USER_CHECK_LOGIN_STATUS') }),
  USER_SIGN_IN: z.object({ type: z.literal('USER_SIGN_IN'), user: jsonField(signInUserSchema, 'user') }),
  USER_SIGN_IN_TOTP: z.object({ type: z.literal('USER_SIGN_IN_TOTP'), user: jsonField(signInTotpUserSchema, 'user') }),
  USER_SIGN_UP: z.object({ type: z.literal('USER_SIGN_UP'), gRecaptchaResponse: botCheck, user: jsonField(signUpUserSchema, 'user') }),
  USER_FORGOT_PASSWORD: z.object({ type: z.literal('USER_FORGOT_PASSWORD'), user: jsonField(forgotUserSchema, 'user') }),
  USER_RESET_PASSWORD: z.object({ type: z.literal('USER_RESET_PASSWORD'), gRecaptchaResponse: botCheck, user: jsonField(resetUserSchema, 'user') }),
} as const;

/**
 * The token in a reset link (/dts/password/reset/{token}): the email (base64url) and Cognito's
 * code, joined by a dot, so the page needs only the new password (spec §2.1). The code stands
 * raw at the end because Cognito writes it into the message where `{####}` stands.
 */
export const RESET_CODE_PLACEHOLDER = '{####}';

const toBase64Url = (text: string): string => {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export const encodeResetToken = (email: string, code: string): string => `${toBase64Url(email)}.${code}`;

export const resetLink = (webUrl: string, email: string, code: string = RESET_CODE_PLACEHOLDER): string =>
  `${webUrl.replace(/\/+$/, '')}/dts/password/reset/${encodeResetToken(email, code)}`;

export const decodeResetToken = (token: string): { email: string; code: string } | undefined => {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const code = token.slice(dot + 1);
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const bin = atob(token.slice(0, dot).replace(/-/g, '+').replace(/_/g, '/'));
    const email = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    return email.includes('@') ? { email, code } : undefined;
  } catch {
    return undefined;
  }
};

// ---- Answers and contracts -------------------------------------------------------------------

/** A user's organization (farmer §3 Organization): the top of their first organization tree; null when they have none. */
const organizationSchema = z.object({ _id: z.string(), name: z.string().optional(), tag: organizationTagSchema.optional() });

/** USER_ONE_GET_BY_TOKEN (farmer §3 User, §7): the caller, their farms and organization. */
export const currentUserAnswerSchema = z.object({
  /** Never null from this server (no profile is a 403); the spec's shells read a missing user as signed out (farmer §4). */
  user: userSchema.nullable(),
  listFarm: z.array(farmSchema),
  organization: organizationSchema.nullable(),
});
export type CurrentUserAnswer = z.infer<typeof currentUserAnswerSchema>;

/** The Cognito tokens of a sign-in (or of the sign-in that follows a sign-up). */
const tokensAnswerSchema = z.object({ token: z.string(), idToken: z.string().optional(), refreshToken: z.string().optional() });
/** USER_SIGN_IN for an account with an authenticator app: no tokens yet, the code step (USER_SIGN_IN_TOTP) next. */
const totpChallengeAnswerSchema = z.object({ challenge: z.literal('SOFTWARE_TOKEN_MFA'), session: z.string() });

const PATH = '/api/user';

/** /api/user: the caller's own record, and the calls that come before there is a token. */
export const userContracts = {
  USER_ONE_GET_BY_TOKEN: contract({ ...startUp.USER_ONE_GET_BY_TOKEN, input: userInputs.USER_ONE_GET_BY_TOKEN, answer: currentUserAnswerSchema, access: access.self }),
  USER_CHECK_LOGIN_STATUS: contract({ path: PATH, type: 'USER_CHECK_LOGIN_STATUS', input: userInputs.USER_CHECK_LOGIN_STATUS, answer: z.enum(['logged_in', 'logged_out']), access: access.public }),
  USER_SIGN_IN: contract({ path: PATH, type: 'USER_SIGN_IN', input: userInputs.USER_SIGN_IN, answer: z.union([tokensAnswerSchema, totpChallengeAnswerSchema]), access: access.public }),
  USER_SIGN_IN_TOTP: contract({ path: PATH, type: 'USER_SIGN_IN_TOTP', input: userInputs.USER_SIGN_IN_TOTP, answer: tokensAnswerSchema, access: access.public }),
  USER_SIGN_UP: contract({ path: PATH, type: 'USER_SIGN_UP', input: userInputs.USER_SIGN_UP, answer: tokensAnswerSchema, access: access.public }),
  USER_FORGOT_PASSWORD: contract({ path: PATH, type: 'USER_FORGOT_PASSWORD', input: userInputs.USER_FORGOT_PASSWORD, answer: z.literal('success'), access: access.public }),
  USER_RESET_PASSWORD: contract({ path: PATH, type: 'USER_RESET_PASSWORD', input: userInputs.USER_RESET_PASSWORD, answer: z.literal('success'), access: access.public }),
} as const;
