import { isNotificationType, NOTIFICATION_TYPES } from '@shared/alerts/types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Times come as ISO text; the §9 wire form 'YYYY-MM-DD HH:mm:ss' without a zone is UTC. */
const instantOf = (text: string): number => {
  const wire = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text);
  return Date.parse(wire ? `${text.replace(' ', 'T')}Z` : text);
};

/**
 * 'DD MMM YYYY HH:mm' (farmer §9) in the farm's time zone: the alert's texts and emails give the
 * farm's local time too, so the screen and the message agree wherever the reader is.
 * Month names are fixed English abbreviations (ICU writes 'Sept' for en-GB).
 */
export const formatWhen = (text: string, timeZone: string | undefined): string => {
  const instant = instantOf(text);
  if (Number.isNaN(instant)) return text;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')} ${MONTHS[Number(get('month')) - 1] ?? ''} ${get('year')} ${get('hour')}:${get('minute')}`;
};

/** The type's label of farmer §3, or 'Type {n}' for one this build does not know. */
export const typeLabel = (type: number): string => (isNotificationType(type) ? NOTIFICATION_TYPES[type] : `Type ${type}`);

/** Temperature to 1 decimal (farmer §9). */
export const formatTemperature = (t: number | null): string => (t === null ? '–' : `${(Math.round(t * 10) / 10).toFixed(1)} °C`);

/** Volume to the nearest 10 L (farmer §9). */
export const formatVolume = (v: number | null): string => (v === null ? '–' : `${(Math.round(v / 10) * 10).toLocaleString('en-NZ')} L`);

/** Agitator 1 Running, 0 Stopped, otherwise unknown (farmer §4). */
export const formatAgitator = (a: 0 | 1 | null): string => (a === 1 ? 'Running' : a === 0 ? 'Stopped' : 'Unknown');
