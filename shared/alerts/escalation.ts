import * as z from 'zod';
import { pushMinutesSchema } from './push';

/**
 * Escalation of an unread critical alert (docs/architecture.md, "Escalation"). Pure
 * rules; the notifier plans the steps as deliveries of the one delivery queue (due later, claimed,
 * sent and retried like any other) and drops a step whose alert was read by the time it is due.
 *  - Step 1: N minutes after the alert was raised, still unread, it is sent again by text to each
 *    of the farm's users whose N is on (their own N).
 *  - Step 2: after 2N, to the users of the farm's organizations (and those above them) who are not
 *    the farm's users and opted in (`organization`), each by their own N.
 */

/** The critical alerts: over 10 °C, over 6 °C, power outage, agitator stopped, cooling at risk, vat full before pickup. */
const CRITICAL_TYPES: ReadonlySet<number> = new Set([101, 102, 301, 401, 105, 202]);
export const isCritical = (type: number): boolean => CRITICAL_TYPES.has(type);

export const ESCALATION_LIMITS = { min: 1, max: 1440 } as const;

/** A user's escalation preference: minutes until an unread critical alert is sent again (null: off), and the organization opt-in. */
export const escalationSettingsSchema = z
  .object({
    minutes: z
      .number()
      .int('Escalation minutes must be a whole number.')
      .min(ESCALATION_LIMITS.min, `Escalation minutes must be between ${ESCALATION_LIMITS.min} and ${ESCALATION_LIMITS.max}.`)
      .max(ESCALATION_LIMITS.max, `Escalation minutes must be between ${ESCALATION_LIMITS.min} and ${ESCALATION_LIMITS.max}.`)
      .nullable(),
    organization: z.boolean(),
    /** Minutes a critical alert's push waits to be opened or acknowledged before its text goes (Web Push; default DEFAULT_PUSH_MINUTES). */
    push_minutes: pushMinutesSchema.optional(),
  })
  .strict();
export type EscalationSettings = z.infer<typeof escalationSettingsSchema>;

export const DEFAULT_ESCALATION: EscalationSettings = { minutes: 15, organization: false };

export interface EscalationStep {
  readonly user_id: string;
  readonly step: 1 | 2;
  /** When the step is due (ISO). */
  readonly due_at: string;
}

/** When a step of an alert raised at `raisedAt` is due for someone with N = `minutes`: step 1 after N, step 2 after 2N. */
export const stepDueAt = (raisedAt: string, step: 1 | 2, minutes: number): string => new Date(Date.parse(raisedAt) + step * minutes * 60_000).toISOString();

/**
 * The escalation steps of an alert raised at `raisedAt`: step 1 for each farm user with N on,
 * step 2 for each organization user (not a farm user) who opted in with N on.
 */
export const escalationSteps = (
  type: number,
  raisedAt: string,
  farmUsers: readonly string[],
  organizationUsers: readonly string[],
  settingsOf: (userId: string) => EscalationSettings,
): EscalationStep[] => {
  if (!isCritical(type)) return [];
  const farm = new Set(farmUsers);
  const out: EscalationStep[] = [];
  for (const u of farm) {
    const m = settingsOf(u).minutes;
    if (m !== null) out.push({ user_id: u, step: 1, due_at: stepDueAt(raisedAt, 1, m) });
  }
  for (const u of new Set(organizationUsers)) {
    if (farm.has(u)) continue;
    const s = settingsOf(u);
    if (s.organization && s.minutes !== null) out.push({ user_id: u, step: 2, due_at: stepDueAt(raisedAt, 2, s.minutes) });
  }
  return out;
};

/** How an escalation step reads in the alert's detail on the Alerts page. */
export const ESCALATION_STEP_LABEL: Readonly<Record<1 | 2, string>> = { 1: 'Sent again (unread)', 2: 'Sent to the organization (unread)' };
