import { isNotificationType, NOTIFICATION_TYPES } from '@shared/alerts/types';

/** The type's label of farmer §3, or 'Type {n}' for one this build does not know. */
export const typeLabel = (type: number): string => (isNotificationType(type) ? NOTIFICATION_TYPES[type] : `Type ${type}`);

/** Temperature to 1 decimal (farmer §9). */
export const formatTemperature = (t: number | null): string => (t === null ? '–' : `${(Math.round(t * 10) / 10).toFixed(1)} °C`);

/** Volume to the nearest 10 L (farmer §9). */
export const formatVolume = (v: number | null): string => (v === null ? '–' : `${(Math.round(v / 10) * 10).toLocaleString('en-NZ')} L`);

/** Agitator 1 Running, 0 Stopped, otherwise unknown (farmer §4). */
export const formatAgitator = (a: 0 | 1 | null): string => (a === 1 ? 'Running' : a === 0 ? 'Stopped' : 'Unknown');
