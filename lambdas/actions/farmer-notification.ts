import {
  farmerNotificationActions as schemas,
  NO_DETAIL_MESSAGE,
  type NotificationDetailAnswer,
  type NotificationEditAnswer,
  type NotificationListAnswer,
  type NotificationStatusAnswer,
} from '../../shared/api/actions/farmer-notification';
import { HIDDEN_MESSAGE_TYPES, type Notification } from '../../shared/alerts/types';
import { activityId } from '../../shared/telemetry/activities';
import type { StoredNotification } from '../adapters/dynamodb/alerts-repository';
import type { AlertDeps } from '../alerts/deps';
import { requireFarmMember } from '../lib/access';
import { action, type ActionContext, type ActionDef } from '../lib/dispatch';
import { ForbiddenError } from '../lib/errors';

type Ctx = ActionContext<AlertDeps>;

/** What a client sees of a notification: the delivery bookkeeping stays on the server. */
const toClient = ({ delivery_state: _d, delivered: _s, ...n }: StoredNotification): Notification => n;

const visible = (n: StoredNotification) => !(n.message_type && HIDDEN_MESSAGE_TYPES.includes(n.message_type));

/** The farm's alert, or a 403 whether it belongs to another farm or does not exist. */
const alertOf = async (farmId: string, alertId: string, { caller, deps }: Ctx) => {
  await requireFarmMember(deps.farms, caller, farmId);
  const n = await deps.alerts.get(farmId, alertId);
  if (!n) throw new ForbiddenError();
  return n;
};

const unreadOf = (list: readonly StoredNotification[]) => list.filter((n) => visible(n) && n.status === 1).length;

/** How far back the storage activity that holds an alert is looked for. */
const STORAGE_LOOKBACK_MS = 14 * 86_400_000;

/** /api/farmer/notification (farmer §2.8, §7). */
export const farmerNotificationActions: Readonly<Record<string, ActionDef<AlertDeps>>> = {
  FARMER_NOTIFICATION_STATUS: action(schemas.FARMER_NOTIFICATION_STATUS, async ({ farm }, { caller, deps }): Promise<NotificationStatusAnswer> => {
    await requireFarmMember(deps.farms, caller, farm);
    return unreadOf(await deps.alerts.list(farm)) > 0 ? 'YES' : 'NO';
  }),

  /** Every visible notification of the farm, newest first; the client splits Alerts and Archive. */
  FARMER_NOTIFICATION_LIST: action(schemas.FARMER_NOTIFICATION_LIST, async ({ farm }, { caller, deps }) => {
    await requireFarmMember(deps.farms, caller, farm);
    return (await deps.alerts.list(farm)).filter(visible).map(toClient) satisfies NotificationListAnswer;
  }),

  /**
   * Farmer §2.8: opening marks read (2) unless archived; the archive icon sets 3. An archived
   * notification stays archived whatever else is sent. Answers the notification and the farm's
   * unread total after the change.
   */
  FARMER_NOTIFICATION_ONE_EDIT: action(schemas.FARMER_NOTIFICATION_ONE_EDIT, async ({ farm, item, status }, ctx) => {
    await alertOf(farm, item._id, ctx);
    const updated = await ctx.deps.alerts.setStatus(farm, item._id, status, status !== 3);
    if (!updated) throw new ForbiddenError();
    return { item: toClient(updated), unread: unreadOf(await ctx.deps.alerts.list(farm)) } satisfies NotificationEditAnswer;
  }),

  /** The storage activity that held the milk when the alert was raised (farmer §2.7, §2.8). */
  FARMER_NOTIFICATION_DETAIL: action(schemas.FARMER_NOTIFICATION_DETAIL, async ({ farm, item }, ctx) => {
    const n = await alertOf(farm, item._id, ctx);
    const at = n.data.published_at;
    const from = new Date(Date.parse(at) - STORAGE_LOOKBACK_MS).toISOString();
    const storages = await ctx.deps.readings.listActivities(n.device._id, from, at, ['storage']);
    const holding = storages
      .filter((a) => a.start.published_at <= at && (a.end === null || a.end.published_at >= at))
      .sort((a, b) => b.start.published_at.localeCompare(a.start.published_at))[0];
    if (!holding) return { _id: null, message: NO_DETAIL_MESSAGE } satisfies NotificationDetailAnswer;
    return { _id: activityId(n.device._id, holding), activity: holding, device: n.device, alert_id: n._id } satisfies NotificationDetailAnswer;
  }),
};
