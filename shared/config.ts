import { z } from 'zod';

/**
 * The runtime configuration the web app reads at start from `/config.json`.
 * In AWS the CDK web construct writes it next to the build; locally the web server answers it.
 */
export const webConfigSchema = z.object({
  apiUrl: z.string().url(),
  region: z.string().min(1),
  userPoolId: z.string().min(1),
  userPoolClientId: z.string().min(1),
  /** Only where Cognito is not at its AWS address (the local stack's cognito-local). */
  cognitoEndpoint: z.string().url().optional(),
  /** The herd-management site's token-login URL (farmer §2.2); the herd link is hidden without it. */
  herdSiteUrl: z.string().url().optional(),
  /** The provider's support page, linked from the No Permission page. */
  supportUrl: z.string().url().optional(),
  /**
   * The reCAPTCHA v2 site key (public) of the bot-check on sign-up and password reset (spec §7).
   * Set where the API checks answers (BOT_CHECK=recaptcha); absent locally, where the check is
   * off and no widget renders.
   */
  recaptchaSiteKey: z.string().min(1).optional(),
});
export type WebConfig = z.infer<typeof webConfigSchema>;
