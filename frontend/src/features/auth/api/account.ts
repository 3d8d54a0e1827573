import { userContracts as c, type SignUpUser } from '@shared/api/actions/user';
import type { ApiClient } from '../../../lib/api-client';

/**
 * USER_SIGN_UP: creates the account; the caller then signs in through Amplify for the session.
 * `botCheck` is the reCAPTCHA answer (components/bot-check.tsx), '' where the check is off.
 */
export const signUp = (client: ApiClient, user: SignUpUser, botCheck: string) => client.call(c.USER_SIGN_UP, { gRecaptchaResponse: botCheck, user });

/** USER_FORGOT_PASSWORD: answers 'success' whether or not the address has an account. */
export const requestPasswordReset = (client: ApiClient, email: string) => client.call(c.USER_FORGOT_PASSWORD, { user: { email } });

/** USER_RESET_PASSWORD: `token` is the reset link's route token; a bad or expired one is a 422. */
export const resetPassword = (client: ApiClient, user: { readonly password: string; readonly token: string }, botCheck: string) =>
  client.call(c.USER_RESET_PASSWORD, { gRecaptchaResponse: botCheck, user });
