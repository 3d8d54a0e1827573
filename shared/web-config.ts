/**
 * The runtime configuration the web app reads at start from `/config.json`.
 * In AWS the CDK web construct writes it next to the build; locally the web server answers it.
 */
export interface WebConfig {
  readonly apiUrl: string;
  /** The live-updates WebSocket (wss:// in AWS); without it the dashboard refreshes every 120 s only. */
  readonly liveUrl?: string;
  readonly region: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** Only where Cognito is not at its AWS address (the local stack's cognito-local). */
  readonly cognitoEndpoint?: string;
  /** The herd-management site's token-login URL (farmer §2.2); the herd link is hidden without it. */
  readonly herdSiteUrl?: string;
  /**
   * The sibling live-monitoring site on another sub-domain (farmer §1); without it the module
   * dashboard shows no link to it, never a dead one.
   */
  readonly liveMonitoringUrl?: string;
  /** The provider's support page, linked from the No Permission page. */
  readonly supportUrl?: string;
  /** The support phone numbers of the two products (farmer §1), shown where a person is told to call. */
  readonly supportPhones?: readonly { readonly label: string; readonly phone: string }[];
  /**
   * The reCAPTCHA v2 site key (public) of the bot-check on sign-up and password reset (spec §7).
   * Set where the API checks answers (BOT_CHECK=recaptcha); absent locally, where the check is
   * off and no widget renders.
   */
  readonly recaptchaSiteKey?: string;
  /**
   * The dairy company's post-install form (operator §2 Help page; §4: a successful FON install
   * goes there). Absent: the Help page says so and a FON install goes to Check Install.
   */
  readonly installFormUrl?: string;
  /** The VAPID public key (base64url) the browser subscribes to pushes with; absent: Notification Settings offers no pushes. */
  readonly vapidPublicKey?: string;
}

/*
 * Checked by hand rather than with zod: the web app parses this before its first paint,
 * and zod (about 25 kB gzipped, its core alone 15 kB) would ride on every page's first load.
 */
type Check = (value: unknown) => string | null;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const text: Check = (value) => (typeof value !== 'string' ? 'expected a string' : value.length === 0 ? 'must not be empty' : null);

const url: Check = (value) => {
  if (typeof value !== 'string') return 'expected a string';
  try {
    new URL(value);
    return null;
  } catch {
    return 'Invalid URL';
  }
};

const phones: Check = (value) => {
  if (!Array.isArray(value)) return 'expected a list';
  const bad = value.findIndex((item) => !isRecord(item) || text(item.label) !== null || text(item.phone) !== null);
  return bad < 0 ? null : `entry ${bad} needs a label and a phone`;
};

/** Each key with its check; optional keys may be absent. */
const FIELDS: Readonly<Record<keyof WebConfig, { readonly check: Check; readonly optional?: true }>> = {
  apiUrl: { check: url },
  liveUrl: { check: url, optional: true },
  region: { check: text },
  userPoolId: { check: text },
  userPoolClientId: { check: text },
  cognitoEndpoint: { check: url, optional: true },
  herdSiteUrl: { check: url, optional: true },
  liveMonitoringUrl: { check: url, optional: true },
  supportUrl: { check: url, optional: true },
  supportPhones: { check: phones, optional: true },
  recaptchaSiteKey: { check: text, optional: true },
  installFormUrl: { check: url, optional: true },
  vapidPublicKey: { check: text, optional: true },
};

type WebConfigParse = { readonly success: true; readonly data: WebConfig } | { readonly success: false; readonly problems: readonly string[] };

/**
 * `/config.json`'s body as a WebConfig (unknown keys dropped), or every problem in key order:
 * `apiUrl is missing`, `apiUrl: Invalid URL`.
 */
export const parseWebConfig = (body: unknown): WebConfigParse => {
  if (!isRecord(body)) return { success: false, problems: ['(root): expected an object'] };
  const problems: string[] = [];
  const data: Record<string, unknown> = {};
  for (const [key, { check, optional }] of Object.entries(FIELDS)) {
    const value = body[key];
    if (value === undefined) {
      if (!optional) problems.push(`${key} is missing`);
      continue;
    }
    const problem = check(value);
    if (problem) problems.push(`${key}: ${problem}`);
    else data[key] = value;
  }
  return problems.length > 0 ? { success: false, problems } : { success: true, data: data as unknown as WebConfig };
};
