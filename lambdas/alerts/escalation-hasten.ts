import { ESCALATION_LIMITS, stepDueAt } from '../../shared/alerts/escalation';
import type { AlertsRepository } from '../ports/alerts';

/** The furthest a step can wait: step 2 at twice the longest N. */
const LONGEST_WAIT_MS = 2 * ESCALATION_LIMITS.max * 60_000;

/**
 * A user shortened their escalation minutes: their steps still waiting for alerts already raised
 * come due at the new time (at once when it has passed), as the steps of later alerts will. A
 * lengthened N needs nothing here: the notifier finds it when the step comes due and lets the step
 * wait (lambdas/alerts/notifier.ts, `currentStep`); N turned off, likewise (the step is skipped).
 * Answers how many steps were moved.
 */
export const hastenEscalations = async (
  deps: { readonly alerts: Pick<AlertsRepository, 'listWaitingEscalationsOf' | 'get' | 'rescheduleEscalation'>; readonly now: () => Date },
  userId: string,
  minutes: number | null,
): Promise<number> => {
  if (minutes === null) return 0;
  const now = deps.now();
  const waiting = await deps.alerts.listWaitingEscalationsOf(userId, now, new Date(now.getTime() + LONGEST_WAIT_MS));
  let moved = 0;
  for (const d of waiting) {
    const n = await deps.alerts.get(d.farm_id, d.alert_id);
    // A step waiting out a failed send's backoff (its due time is not its planned one) keeps its backoff.
    if (!n || !d.escalation || d.due_at !== d.escalation_due) continue;
    const due = stepDueAt(n.created_at, d.escalation, minutes);
    if (due >= d.due_at) continue;
    const at = due > now.toISOString() ? due : now.toISOString();
    // Claimed or moved meanwhile: the notifier plans it from the saved minutes when it sends.
    if (await deps.alerts.rescheduleEscalation(d, at, due)) moved += 1;
  }
  return moved;
};
