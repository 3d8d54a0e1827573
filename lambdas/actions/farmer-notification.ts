import {
  farmerNotificationContracts as contracts,
  NO_DETAIL_MESSAGE,
  NOTIFICATION_PAGE_SIZE,
  type EscalationStepWire,
  type NotificationDetailAnswer,
  type NotificationEditAnswer,
  type NotificationListAnswer,
  type NotificationStatusAnswer,
} from '../../shared/api/actions/farmer-notification';
import { HIDDEN_MESSAGE_TYPES, type Notification } from '../../shared/alerts/types';
import { activityId } from '../../shared/telemetry/activities';
import type { StoredNotification } from '../ports/alerts';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError } from '../lib/errors';
import type { Ports } from '../ports/action-ports';

/** What a client sees of a notification: the delivery bookkeeping stays on the server. */
const toClient = ({ delivery_state: _d, delivered: _s, ...n }: StoredNotification): Notification => n;

const visible = (n: StoredNotification) => !(n.message_type && HIDDEN_MESSAGE_TYPES.includes(n.message_type));

/** The farm's alert (the rule has checked the farm), or a 403 whether it is another farm's or does not exist. */
const alertOf = async (alerts: Ports['alerts'], farmId: string, alertId: string) => {
  const n = await alerts.get(farmId, alertId);
  if (!n) throw new ForbiddenError();
  return n;
};

const unreadOf = (list: readonly StoredNotification[]) => list.filter((n) => visible(n) && n.status === 1).length;

/** The alert's escalation steps with each recipient's name, oldest due first. */
const escalationsOf = async (deps: Pick<Ports, 'alerts' | 'farms'>, farmId: string, alertId: string): Promise<EscalationStepWire[]> => {
  const steps = (await deps.alerts.listDeliveries(farmId, alertId)).filter((d) => d.escalation).sort((a, b) => a.due_at.localeCompare(b.due_at));
  const names = new Map<string, string>();
  for (const id of new Set(steps.map((d) => d.user_id))) {
    const u = await deps.farms.getUser(id);
    names.set(id, u ? `${u.firstName} ${u.lastName}`.trim() : 'A former user');
  }
  return steps.map((d) => ({
    step: d.escalation ?? 1,
    recipient: names.get(d.user_id) ?? '',
    channel: d.channel,
    due_at: d.escalation_due ?? d.due_at,
    state: d.state,
    ...(d.settled_at ? { settled_at: d.settled_at } : {}),
    ...(d.state !== 'sent' && d.last_error ? { reason: d.last_error } : {}),
  }));
};

/** How far back the storage activity that holds an alert is looked for. */
const STORAGE_LOOKBACK_MS = 14 * 86_400_000;

/** /api/farmer/notification (farmer §2.8, §7). */
export const farmerNotificationHandlers: readonly ServedAction[] = [
  serve(contracts.FARMER_NOTIFICATION_STATUS, ['alerts'], async ({ farm }, { deps }): Promise<NotificationStatusAnswer> =>
    unreadOf(await deps.alerts.list(farm)) > 0 ? 'YES' : 'NO',
  ),

  /** A page of the farm's visible notifications, newest first (after `cursor`); the client splits Alerts and Archive. */
  serve(contracts.FARMER_NOTIFICATION_LIST, ['alerts'], async ({ farm, cursor }, { deps }) =>
    (await deps.alerts.listPage(farm, { after: cursor || undefined, limit: NOTIFICATION_PAGE_SIZE, keep: visible })).map(toClient) satisfies NotificationListAnswer,
  ),

  /**
   * Farmer §2.8: opening marks read (2) unless archived; the archive icon sets 3. An archived
   * notification stays archived whatever else is sent. Answers the notification and the farm's
   * unread total after the change.
   */
  serve(contracts.FARMER_NOTIFICATION_ONE_EDIT, ['alertsWrite', 'now'], async ({ farm, item, status }, { deps }) => {
    await alertOf(deps.alertsWrite, farm, item._id);
    const updated = await deps.alertsWrite.setStatus(farm, item._id, status, status !== 3, deps.now());
    if (!updated) throw new ForbiddenError();
    return { item: toClient(updated), unread: unreadOf(await deps.alertsWrite.list(farm)) } satisfies NotificationEditAnswer;
  }),

  /** The storage activity that held the milk when the alert was raised (farmer §2.7, §2.8). */
  serve(contracts.FARMER_NOTIFICATION_DETAIL, ['alerts', 'readings', 'farms'], async ({ farm, item }, ctx) => {
    const n = await alertOf(ctx.deps.alerts, farm, item._id);
    const escalations = await escalationsOf(ctx.deps, farm, n._id);
    const at = n.data.published_at;
    const from = new Date(Date.parse(at) - STORAGE_LOOKBACK_MS).toISOString();
    const storages = await ctx.deps.readings.listActivities(n.device._id, from, at, ['storage']);
    const holding = storages
      .filter((a) => a.start.published_at <= at && (a.end === null || a.end.published_at >= at))
      .sort((a, b) => b.start.published_at.localeCompare(a.start.published_at))[0];
    if (!holding) return { _id: null, message: NO_DETAIL_MESSAGE, escalations } satisfies NotificationDetailAnswer;
    return { _id: activityId(n.device._id, holding), activity: holding, device: n.device, alert_id: n._id, escalations } satisfies NotificationDetailAnswer;
  }),
];
