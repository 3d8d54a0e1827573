import { z } from 'zod';
import { boolField, jsonField } from '../fields';

/** Farmer spec §5 messages. */
export const MSG_EMAIL = 'Please enter a correct email address';
export const MSG_PASSWORD_REQUIRED = 'Please enter password';

const email = z.string({ error: MSG_EMAIL }).trim().pipe(z.email({ error: MSG_EMAIL }));

/** /api/user (farmer spec §7). */
export const userActions = {
  USER_ONE_GET_BY_TOKEN: z.object({ type: z.literal('USER_ONE_GET_BY_TOKEN'), farm: z.string().optional() }),
  USER_CHECK_LOGIN_STATUS: z.object({ type: z.literal('USER_CHECK_LOGIN_STATUS') }),
  USER_SIGN_IN: z.object({
    type: z.literal('USER_SIGN_IN'),
    user: jsonField(
      z.object({
        email,
        password: z.string({ error: MSG_PASSWORD_REQUIRED }).min(1, MSG_PASSWORD_REQUIRED),
        remember: boolField.optional(),
      }),
      'user',
    ),
  }),
} as const;
