import * as z from 'zod';

/**
 * The runtime configuration the web app reads at start from `/config.json`.
 * In AWS the CDK web construct writes it next to the build; locally the web server answers it.
 */
export const webConfigSchema = z.object({
  apiUrl: z.string().url(),
  /** The live-updates WebSocket (issue 26: wss:// in AWS); without it the dashboard refreshes every 120 s only. */
  liveUrl: z.string().url().optional(),
  region: z.string().min(1),
  userPoolId: z.string().min(1),
  userPoolClientId: z.string().min(1),
  /** Only where Cognito is not at its AWS address (the local stack's cognito-local). */
  cognitoEndpoint: z.string().url().optional(),
  /** The herd-management site's token-login URL (farmer §2.2); the herd link is hidden without it. */
  herdSiteUrl: z.string().url().optional(),
  /** The provider's support page, linked from the No Permission page. */
  supportUrl: z.string().url().optional(),
  /** The support phone numbers of the two products (farmer §1), shown where a person is told to call. */
  supportPhones: z.array(z.object({ label: z.string().min(1), phone: z.string().min(1) })).optional(),
  /**
   * The reCAPTCHA v2 site key (public) of the bot-check on sign-up and password reset (spec §7).
   * Set where the API checks answers (BOT_CHECK=recaptcha); absent locally, where the check is
   * off and no widget renders.
   */
  recaptchaSiteKey: z.string().min(1).optional(),
  /**
   * The dairy company's post-install form (operator §2 Help page; §4: a successful FON install
   * goes there). Absent: the Help page says so and a FON install goes to Check Install.
   */
  installFormUrl: z.string().url().optional(),
});
export type WebConfig = z.infer<typeof webConfigSchema>;

/**
 * The provider's contacts and the partner site (farmer §1, §2.1, §2.2, §2.16). `npx cdk deploy`
 * takes each from CDK context (-c supportUrl=… -c herdSiteUrl=… -c salesEmail=… -c
 * supportPhones='[{"label":…,"phone":…}]'), else these defaults; the local stack sets its own
 * (local/start.ts: the herd site is its local stand-in there).
 */
export const contactsSchema = z.object({
  supportUrl: z.string().url(),
  supportPhones: z.array(z.object({ label: z.string().min(1), phone: z.string().min(1) })).min(1),
  herdSiteUrl: z.string().url(),
  /** Where enquiries go (SURVEY_SUBMIT), subscribed to the enquiry topic. */
  salesEmail: z.email(),
  /** The dairy company's post-install form (operator §2 Help, §4 after a FON install); none by default. */
  installFormUrl: z.string().url().optional(),
});
export type Contacts = z.infer<typeof contactsSchema>;

export const DEFAULT_CONTACTS: Contacts = {
  supportUrl: 'https://www.vatman.co.nz/support',
  supportPhones: [
    { label: 'Vat-Man', phone: '0800 828 626' },
    { label: 'Live monitoring', phone: '0800 548 366' },
  ],
  herdSiteUrl: 'https://herd.vatman.co.nz/login/token',
  salesEmail: 'sales@vatman.co.nz',
};
