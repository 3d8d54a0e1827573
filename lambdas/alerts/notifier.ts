import { assertIsError } from '../lib/errors';
import type { Delivery, StoredNotification } from '../ports/alerts';
import type { Farm } from '../../shared/entities/farm';
import type { NotifierDeps } from './notifier-deps';
import { makeDeliveryPlanner } from './delivery-plan';
import { makeDeliverySender } from './delivery-send';

/** Deliveries one queue run takes at most, and the time it may spend claiming more (the sweep has 50 s). */
const QUEUE_BATCH = 500;
const QUEUE_BUDGET_MS = 20_000;

type DeliveryResult = 'done' | 'pending';

/**
 * Alert delivery as a queue. An alert is first *planned*: one delivery record per
 * (alert, user, channel) the user's preferences ask for (farmer §3 Alert setting, all on by
 * default), written conditionally so planning twice records nothing twice:
 *  - a text only to a verified phone (phone_verify 2), and only while the farm's monthly text
 *    allowance (§9 SMS totals) lasts; a user who wants a text but cannot get one gets the email
 *    instead, saying why when it is the allowance;
 *  - never to a showroom account (is_demo).
 * Then each delivery is *claimed* (a conditional write taking a lease), *sent*, and *marked* while
 * the lease holds: a crash resends at most the one delivery in flight, after its lease ends, and
 * two senders never send the same one. A failed send is due again after a backoff; after
 * MAX_ATTEMPTS it is a dead letter (logged with the DeliveryDeadLetters metric) and the other
 * channel is tried instead, as is a text to a phone no longer verified and an email to an address
 * not confirmed (which SNS would drop unseen, so it is never marked sent).
 */
export const makeNotifier = (deps: NotifierDeps) => {
  const { alerts, log } = deps;
  const planner = makeDeliveryPlanner(deps);
  const { plan } = planner;
  const sendOne = makeDeliverySender(deps, planner);

  /** Sends a delivery and, when it failed for good, the fallback it made. */
  const sendWithFallback = async (d: Delivery): Promise<number> => {
    let sent = 0;
    let next: Delivery | undefined = d;
    while (next) {
      const r = await sendOne(next);
      if (r.result === 'sent') sent += 1;
      next = r.next;
    }
    return sent;
  };

  /**
   * Delivers a newly raised alert (the run that raised it): plans it and sends what is due.
   * 'done' when every delivery is settled; otherwise the queue (the sweep) has the rest.
   */
  const deliver = async (n: StoredNotification, knownFarm?: Farm): Promise<DeliveryResult> => {
    const farm = await plan(n, knownFarm);
    if (!farm) return 'done';
    const now = deps.now().toISOString();
    for (const d of await alerts.listDeliveries(farm._id, n._id)) if ((d.state === 'pending' || d.state === 'sending') && d.due_at <= now) await sendWithFallback(d);
    return (await alerts.listDeliveries(farm._id, n._id)).every((d) => d.state !== 'pending' && d.state !== 'sending') ? 'done' : 'pending';
  };

  /**
   * The queue run (the sweep, first thing): plans every notification not yet planned, then sends
   * the due deliveries from their own index, oldest first, so deliveries never wait behind the
   * fleet. Answers how many were sent.
   */
  const retryPending = async (): Promise<number> => {
    for (const n of await alerts.listPendingDelivery()) {
      try {
        await plan(n);
      } catch (err) {
        assertIsError(err);
        log.error('alert not planned; the next sweep tries again', { alert: n._id, err });
      }
    }
    const started = performance.now();
    let sent = 0;
    for (const d of await alerts.listDueDeliveries(deps.now(), QUEUE_BATCH)) {
      if (performance.now() - started > QUEUE_BUDGET_MS) break;
      try {
        sent += await sendWithFallback(d);
      } catch (err) {
        // A store failure: the claim's lease runs out and the next run takes the delivery again.
        assertIsError(err);
        log.error('alert delivery failed in the queue run', { alert: d.alert_id, user: d.user_id, channel: d.channel, err });
      }
    }
    return sent;
  };

  return { deliver, retryPending };
};
export type Notifier = ReturnType<typeof makeNotifier>;
