import { COOKIE_YEARS } from '@shared/constants';
import type { Farm } from '@shared/entities/farm';

/** The selected-farm cookie (farmer §3 Cookies): JSON `{ "_id": … }`, valid 100 years. */
export const SELECTED_FARM_COOKIE = 'vatman_farm';

/** Where cookies live; a port so tests can hand in their own jar. */
export interface CookieJar {
  cookie: string;
}

const browserJar = (): CookieJar => document;

/** The stored farm id, or undefined when there is none or it is not `{ _id: string }`. */
export const readSelectedFarm = (jar: CookieJar = browserJar()): string | undefined => {
  const prefix = `${SELECTED_FARM_COOKIE}=`;
  const raw = jar.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
  if (!raw) return undefined;
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as unknown;
    if (value !== null && typeof value === 'object' && '_id' in value && typeof value._id === 'string' && value._id !== '') return value._id;
  } catch {
    // Not ours or damaged: treated as none stored, so the first farm is chosen and stored again.
  }
  return undefined;
};

export const writeSelectedFarm = (farmId: string, jar: CookieJar = browserJar(), now: Date = new Date()): void => {
  const expires = new Date(now);
  expires.setUTCFullYear(expires.getUTCFullYear() + COOKIE_YEARS);
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  jar.cookie = `${SELECTED_FARM_COOKIE}=${encodeURIComponent(JSON.stringify({ _id: farmId }))}; expires=${expires.toUTCString()}; path=/; SameSite=Lax${secure}`;
};

/**
 * The farm to show (farmer §4): the stored one if it is among the user's farms, else the first.
 * Undefined only when the user has no farm at all.
 */
export const chooseFarm = (farms: readonly Farm[], storedId: string | undefined): Farm | undefined =>
  farms.find((farm) => farm._id === storedId) ?? farms[0];

/** How a farm is named in lists: its farm code, or its name for demo accounts (farmer §6). */
export const farmLabel = (farm: Pick<Farm, 'fonterra_id' | 'name'>, isDemo: boolean | undefined): string =>
  isDemo && farm.name ? farm.name : farm.fonterra_id;
