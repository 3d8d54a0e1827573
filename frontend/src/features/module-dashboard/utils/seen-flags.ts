import { COOKIE_YEARS } from '@shared/constants';

/**
 * The two seen-flag cookies of farmer §3 (one per promotion banner), valid 100 years like the
 * others. A banner whose cookie is set is never shown again in this browser.
 */
export const SEEN_FLAG_COOKIES = {
  compliance: 'vatman_seen_compliance',
  auto: 'vatman_seen_auto',
} as const;
export type Promotion = keyof typeof SEEN_FLAG_COOKIES;

/** Where cookies live; a port so tests can hand in their own jar. */
interface CookieJar {
  cookie: string;
}
const browserJar = (): CookieJar => document;

export const hasSeen = (promotion: Promotion, jar: CookieJar = browserJar()): boolean => {
  const name = `${SEEN_FLAG_COOKIES[promotion]}=`;
  return jar.cookie.split(';').some((part) => part.trim().startsWith(name) && part.trim().length > name.length);
};

/** Sets the banner's seen flag for COOKIE_YEARS years. */
export const markSeen = (promotion: Promotion, jar: CookieJar = browserJar(), now: Date = new Date()): void => {
  const expires = new Date(now);
  expires.setUTCFullYear(expires.getUTCFullYear() + COOKIE_YEARS);
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  jar.cookie = `${SEEN_FLAG_COOKIES[promotion]}=1; expires=${expires.toUTCString()}; path=/; SameSite=Lax${secure}`;
};
