/**
 * The web app's Content-Security-Policy (issue "A stack that deploys and is locked down"): the
 * CloudFront response headers policy in AWS and the local static server send the same one, so
 * the browser tests see what users get.
 *
 * - scripts only from the site and reCAPTCHA's (sign-up and reset load Google's widget);
 * - styles from the site and inline `style` attributes: React sets sizes and colours inline
 *   (chart heights, level bars, gauges); no inline <script> is allowed;
 * - connections to the site, the API, the live-updates WebSocket and Cognito only;
 * - the service worker and the web app manifest from the site only;
 * - no plugins, no framing of the app, forms post only to the site.
 */
interface CspOrigins {
  /** Where the API answers when it is not the site itself (its `/api/*`, covered by 'self'): an origin or a host pattern. */
  readonly api?: string;
  /** Where Amplify reaches Cognito. */
  readonly cognito: readonly string[];
  /** The live-updates WebSocket: a ws:/wss: origin or host pattern. */
  readonly live?: string;
}

const RECAPTCHA_SCRIPTS = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAMES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];

export const contentSecurityPolicy = ({ api, cognito, live }: CspOrigins): string =>
  [
    "default-src 'self'",
    `script-src 'self' ${RECAPTCHA_SCRIPTS.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${[...(api ? [api] : []), ...(live ? [live] : []), ...cognito, ...RECAPTCHA_SCRIPTS].join(' ')}`,
    // The offline app: its service worker and manifest come from the site only.
    "worker-src 'self'",
    "manifest-src 'self'",
    `frame-src ${RECAPTCHA_FRAMES.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/** The other security headers CloudFront adds (its SECURITY_HEADERS policy), for the local server. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};
