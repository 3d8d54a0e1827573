import type { AlertData, NotificationType } from './types';

/**
 * The texts of alert messages. SMS: one GSM-7 segment (160 characters) where possible, so no
 * degree sign (it is not in the GSM-7 alphabet and would halve the segment to 70): "8.5C".
 */
export const SMS_SEGMENT = 160;

/** What happened, in words a farmer reads at a glance (GSM-7 only). */
export const ALERT_WORDS: Readonly<Record<NotificationType, string>> = {
  101: 'Milk over 10C',
  102: 'Milk over 6C',
  103: 'Plate cooler outlet too warm',
  104: 'Milk too cold',
  110: 'Milk slow to cool',
  111: 'Milk picked up',
  112: 'Vat control status unknown',
  113: 'Vat control on manual override',
  114: 'Vat control switched off',
  201: 'Vat volume over threshold',
  301: 'Power outage (mains off 5 min)',
  401: 'Agitator stopped',
  501: 'Monitor back online',
  502: 'Monitor offline (no data 15 min)',
  601: 'Milking duration unusual',
  701: 'Collection not finished in estimated time',
  702: 'Vat reading differs from tanker: ask for a calibration',
  1001: 'Milk quality: APC low risk',
  1002: 'Milk quality: APC moderate risk',
  1003: 'Milk quality: APC high risk',
  1004: 'Milk quality: acceptance risk exceeded',
  1102: 'Milk quality: agitator outage',
  1201: 'Late milking',
  105: 'Cooling at risk',
  202: 'Vat will be full before pickup',
};

export interface MessageFacts {
  readonly type: NotificationType;
  readonly farmName: string;
  readonly vatNumber: number;
  readonly data: AlertData;
  /** IANA zone of the farm: times are shown in local time (farmer §9). */
  readonly timezone: string;
  readonly detail?: string;
  /** An escalation step: the alert is still unread. */
  readonly escalation?: 1 | 2;
}

/** What happened, with 'Still unread' ahead of it on an escalation. */
const wordsOf = (f: MessageFacts): string => (f.escalation ? `Still unread: ${ALERT_WORDS[f.type]}` : ALERT_WORDS[f.type]);

/** "14:05 Sun 22 Nov" in the farm's zone. */
export const localTime = (iso: string, timezone: string): string => {
  const parts = new Intl.DateTimeFormat('en-NZ', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', weekday: 'short', day: 'numeric', month: 'short' }).formatToParts(new Date(iso));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('hour')}:${get('minute')} ${get('weekday')} ${get('day')} ${get('month')}`;
};

/** "14:05" in the farm's zone. */
export const localHourMinute = (iso: string, timezone: string): string =>
  new Intl.DateTimeFormat('en-NZ', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/** Types whose text carries the alert's detail (105: the predicted time and the deadline). */
const SMS_WITH_DETAIL: readonly NotificationType[] = [105];

const figures = (d: AlertData): string => {
  const out: string[] = [];
  if (d.temp1 !== null) out.push(`${(Math.round(d.temp1 * 10) / 10).toFixed(1)}C`);
  if (d.milk_volume !== null) out.push(`${Math.round(d.milk_volume / 10) * 10} L`);
  return out.join(', ');
};

/** One SMS: farm, vat, what happened, figures and when (local time). */
export const smsText = (f: MessageFacts): string => {
  const what = SMS_WITH_DETAIL.includes(f.type) && f.detail ? `${wordsOf(f)}, ${f.detail}` : wordsOf(f);
  const fig = figures(f.data);
  const when = localTime(f.data.published_at, f.timezone);
  const full = `Vat-Man ${f.farmName} Vat ${f.vatNumber}: ${what}${fig ? ` (${fig})` : ''} at ${when}.`;
  if (full.length <= SMS_SEGMENT) return full;
  // A long farm name is the only part that can grow: shorten it rather than split the text.
  const room = SMS_SEGMENT - (full.length - f.farmName.length) - 1;
  return `Vat-Man ${f.farmName.slice(0, Math.max(8, room))}~ Vat ${f.vatNumber}: ${what}${fig ? ` (${fig})` : ''} at ${when}.`;
};

/** A push (Web Push, beyond the spec): the farm and vat as its title, the alert's words, figures and farm-local time as its body. */
export const pushText = (f: MessageFacts): { title: string; body: string } => {
  const fig = figures(f.data);
  const what = f.detail ? `${wordsOf(f)}, ${f.detail}` : wordsOf(f);
  return { title: `${f.farmName} Vat ${f.vatNumber}`, body: `${what}${fig ? ` (${fig})` : ''} at ${localTime(f.data.published_at, f.timezone)}.` };
};

export const emailSubject = (f: MessageFacts): string => `Vat-Man alert: ${f.farmName} Vat ${f.vatNumber} - ${wordsOf(f)}`;

/** Plain text: SNS mails the message as text, so no value in it is markup (and none is HTML-escaped). */
export const emailBody = (f: MessageFacts, note?: string): string =>
  [
    `${wordsOf(f)} on ${f.farmName}, Vat ${f.vatNumber}.`,
    '',
    `When: ${localTime(f.data.published_at, f.timezone)} (farm local time)`,
    ...(f.data.temp1 !== null ? [`Vat temperature: ${(Math.round(f.data.temp1 * 10) / 10).toFixed(1)} °C`] : []),
    ...(f.data.milk_volume !== null ? [`Milk volume: ${Math.round(f.data.milk_volume / 10) * 10} L`] : []),
    ...(f.data.agitator_status !== null ? [`Agitator: ${f.data.agitator_status === 1 ? 'Running' : 'Stopped'}`] : []),
    ...(f.detail ? [`Detail: ${f.detail}`] : []),
    ...(note ? ['', note] : []),
    '',
    'Open Vat-Man and go to Notifications for the details. You can choose which alerts you receive by email or text under Notification Settings.',
  ].join('\n');

/** The note in an email sent instead of a text because the farm's monthly allowance is used up. */
export const allowanceNote = (total: number): string =>
  `This alert came by email instead of text: your farm has used all ${total} texts of its monthly text allowance.`;
