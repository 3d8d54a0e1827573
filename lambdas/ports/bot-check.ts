/**
 * The bot-check of spec §7 (sign-up and password reset carry `gRecaptchaResponse`). The mode is
 * always explicit configuration, never a default: BOT_CHECK=off (the local stack, tests) or
 * BOT_CHECK=recaptcha with RECAPTCHA_SECRET_PARAMETER, the name of an SSM SecureString read at the
 * first check and kept while the container lives (the secret is never in the function's
 * environment). A Lambda without BOT_CHECK fails at cold start, so production can never run with
 * the check silently skipped.
 */
export interface BotCheck {
  readonly mode: 'off' | 'recaptcha';
  verify(response: string, remoteIp?: string): Promise<void>;
}

/** The field the answer rides in: spec §7's form field, and SignUp's ValidationData and ClientMetadata for the pre-sign-up trigger. */
export const BOT_CHECK_FIELD = 'gRecaptchaResponse';

/** The spec's client maps these two answers to a retry message (farmer §8). */
export const BOT_CHECK_FAILED = 'invalid-input-response';

export const BOT_CHECK_STALE = 'timeout-or-duplicate';
