import { ALERT_WORDS } from '@shared/alerts/messages';
import { isNotificationType } from '@shared/alerts/types';

/** Minutes as '2 h 05 min' / '25 min'; unknown as '–'. */
export const formatDuration = (minutes: number | null | undefined): string => {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes) || minutes < 0) return '–';
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  const days = Math.floor(m / 1440);
  const hours = Math.floor((m % 1440) / 60);
  const rest = m % 60;
  return `${days > 0 ? `${days} d ` : ''}${hours} h ${String(rest).padStart(2, '0')} min`;
};

/** What an alert type means (farmer §3 "code: label, meaning"), in the words of the alert messages. */
export const alertDescription = (type: number): string | undefined => (isNotificationType(type) ? ALERT_WORDS[type] : undefined);
