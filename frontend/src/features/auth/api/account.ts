import { z } from 'zod';
import type { SignUpUser } from '@shared/api/actions/user';
import type { ApiClient } from '../../../lib/api-client';

const USER_PATH = '/api/user';

/**
 * The bot-check answer (spec §7). No widget runs yet (the local stack has none and the server
 * accepts an empty answer where the check is off): this is the one place a widget's token goes.
 */
export const botCheckResponse = (): string => '';

export const signUpAnswerSchema = z.object({
  token: z.string(),
  idToken: z.string().optional(),
  refreshToken: z.string().optional(),
});

/** USER_SIGN_UP: creates the account; the caller then signs in through Amplify for the session. */
export const signUp = (client: ApiClient, user: SignUpUser) =>
  client.post(USER_PATH, 'USER_SIGN_UP', { gRecaptchaResponse: botCheckResponse(), user }, { schema: signUpAnswerSchema });

/** USER_FORGOT_PASSWORD: answers 'success' whether or not the address has an account. */
export const requestPasswordReset = (client: ApiClient, email: string) =>
  client.post(USER_PATH, 'USER_FORGOT_PASSWORD', { user: { email } });

/** USER_RESET_PASSWORD: `token` is the reset link's route token; a bad or expired one is a 422. */
export const resetPassword = (client: ApiClient, user: { readonly password: string; readonly token: string }) =>
  client.post(USER_PATH, 'USER_RESET_PASSWORD', { gRecaptchaResponse: botCheckResponse(), user });
