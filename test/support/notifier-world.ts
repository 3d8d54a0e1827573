/**
 * The notifier's unit-test world (lambdas/alerts/notifier*.test.ts): one farm, its users and their
 * preferences in memory, the delivery queue as the store keeps it, SNS mocked as AWS answers it.
 */
import { CreateTopicCommand, GetSubscriptionAttributesCommand, PublishCommand, SNSClient, SubscribeCommand, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { DEFAULT_ESCALATION, type EscalationSettings } from '../../shared/alerts/escalation';
import { defaultPreferences, type Preferences } from '../../shared/alerts/preferences';
import type { Farm } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';
import type { Delivery, StoredNotification } from '../../lambdas/ports/alerts';
import { alertEmailTopics } from '../../lambdas/adapters/sns/alert-email';
import type { AlertEmailRoute } from '../../lambdas/ports/alert-email';
import { snsAlertSender } from '../../lambdas/adapters/sns/alert-sender';
import { createLogger } from '../../lambdas/lib/logger';
import { makeNotifier } from '../../lambdas/alerts/notifier';
import type { NotifierDeps } from '../../lambdas/alerts/notifier-deps';

const ARN = 'arn:aws:sns:us-east-1:000000000000:';
const PREFIX = 'vatman-test-alert-email-';
/** Each user's own alert-email topic. */
export const topicOf = (userId: string) => `${ARN}${PREFIX}${userId}`;
export const sns = mockClient(SNSClient);
/** SNS answers topics and subscriptions as AWS does: the ARN from the name, a subscription under its topic. */
export const mockTopics = () => {
  sns.on(CreateTopicCommand).callsFake((input: { Name: string }) => ({ TopicArn: `${ARN}${input.Name}` }));
  sns.on(SubscribeCommand).callsFake((input: { TopicArn: string; Protocol: string }) => ({ SubscriptionArn: `${input.TopicArn}:${input.Protocol}` }));
  sns.on(GetSubscriptionAttributesCommand).resolves({ Attributes: { PendingConfirmation: 'false' } });
};

const farm: Farm = {
  _id: 'farm-pro',
  fonterra_id: '31245',
  name: 'Totara Downs',
  package: 'Vat-Man Pro',
  is_milk_enabled: true,
  power: true,
  knode: { is_water_enabled: false, is_effluent_enabled: false, is_land_enabled: false, is_weather_enabled: false },
  timezone: 'Pacific/Auckland',
  auto_check: false,
  fonterra_api_status: false,
  harvest: false,
  install_numVats: 2,
};
export const user = (o: Partial<User> & Pick<User, '_id' | 'email'>): User => ({
  firstName: 'A',
  lastName: 'B',
  phone: '+64211234567',
  role: 'farmer',
  is_herd_enabled: 0,
  subscribed: false,
  email_verify: 2,
  phone_verify: 2,
  created_at: '2026-01-01T00:00:00.000Z',
  ...o,
});
export const alert = (o: Partial<StoredNotification> = {}): StoredNotification => ({
  _id: '2026-11-22T03:30:00.000Z~dev-31245-1~102',
  farm_id: 'farm-pro',
  type: 102,
  status: 1,
  data: { published_at: '2026-11-22T03:30:00.000Z', temp1: 8.46, milk_volume: 4_321, agitator_status: 1 },
  device: { _id: 'dev-31245-1', name: 'vm-31245-1', vat_number: 1 },
  created_at: '2026-11-22T03:30:02.000Z',
  delivery_state: 'pending',
  delivered: [],
  ...o,
});

/**
 * In-memory ports: users, preferences, the month's text count, and the delivery queue with the
 * Alerts repository's conditions (claim only what is due, mark only under the claim's lease).
 */
export const world = (
  users: User[],
  prefs: Record<string, Preferences> = {},
  smsUsed = 0,
  /** Escalation: each user's preference, the organization's other users, the alert as stored. */
  esc?: { settings: Record<string, EscalationSettings>; orgUsers: User[]; stored?: () => StoredNotification },
) => {
  const finished = new Map<string, string>();
  const deliveries = new Map<string, Delivery>();
  let sms = smsUsed;
  const holders = new Set<string>();
  let clock = new Date('2026-11-22T03:31:00.000Z');
  const keyOf = (d: Pick<Delivery, 'alert_id' | 'user_id' | 'channel' | 'escalation'>) => `${d.alert_id}|${d.user_id}|${d.channel}|${d.escalation ?? 0}`;
  const stored = esc?.stored ?? (() => alert());
  const alerts: NotifierDeps['alerts'] = {
    get: async (_f, id) => (id === stored()._id ? stored() : undefined),
    async finishDelivery(_f, id, state = 'done') {
      finished.set(id, state);
    },
    listPendingDelivery: async () => [],
    async addDelivery(d) {
      if (deliveries.has(keyOf(d))) return false;
      deliveries.set(keyOf(d), { ...d, state: 'pending', attempts: 0 });
      return true;
    },
    listDeliveries: async (_f, id) => [...deliveries.values()].filter((d) => d.alert_id === id),
    listDueDeliveries: async (now) =>
      [...deliveries.values()].filter((d) => (d.state === 'pending' || d.state === 'sending') && d.due_at <= now.toISOString()).sort((a, b) => a.due_at.localeCompare(b.due_at)),
    async claimDelivery(d, lease, now, until) {
      const cur = deliveries.get(keyOf(d));
      if (!cur || !(cur.state === 'pending' || cur.state === 'sending') || cur.due_at > now.toISOString()) return undefined;
      const next: Delivery = { ...cur, state: 'sending', lease, due_at: until.toISOString(), attempts: cur.attempts + 1 };
      deliveries.set(keyOf(d), next);
      return next;
    },
    async settleDelivery(d, lease, o) {
      const cur = deliveries.get(keyOf(d));
      if (cur?.lease !== lease) return false;
      const { lease: _l, ...rest } = cur;
      deliveries.set(
        keyOf(d),
        o.state === 'pending' ? { ...rest, state: 'pending', due_at: o.due_at, last_error: o.error, ...(o.escalation_due ? { escalation_due: o.escalation_due } : {}) } : { ...rest, state: o.state, settled_at: o.at, ...('error' in o ? { last_error: o.error } : {}) },
      );
      return true;
    },
    async reserveSms(_f, _m, total, holder) {
      if (holders.has(holder)) return true;
      if (sms >= total) return false;
      sms += 1;
      holders.add(holder);
      return true;
    },
    async releaseSms(_f, _m, holder) {
      if (!holders.delete(holder)) return;
      sms -= 1;
    },
    // No pushes in these tests (no push deps): nothing is ever saved or brought forward.
    saveSms: async () => {},
    hastenDelivery: async () => false,
  } satisfies NotifierDeps['alerts'];
  const routes = new Map<string, AlertEmailRoute>();
  const emailTopics = alertEmailTopics(
    new SNSClient({ region: 'us-east-1' }),
    `${ARN}${PREFIX}`,
    { getEmailRoute: async (id) => routes.get(id), putEmailRoute: async (id, route) => void routes.set(id, route) },
    () => clock,
  );
  const log = createLogger({}, 'error', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  const lines: Record<string, unknown>[] = [];
  const accounts = [...users, ...(esc?.orgUsers ?? [])];
  const notifier = makeNotifier({
    // Everyone who had an account when the world began (leaving an organization keeps the account).
    farms: { getFarm: async () => farm, getUser: async (id) => accounts.find((u) => u._id === id) },
    settings: {
      listUserIdsOfFarm: async () => users.map((u) => u._id),
      getPreferencesOf: async (ids) => new Map(ids.map((id) => [id, prefs[id] ?? defaultPreferences()])),
      ...(esc
        ? {
            getEscalationOf: async (ids: readonly string[]) => new Map(ids.map((id) => [id, esc.settings[id] ?? DEFAULT_ESCALATION])),
            listOrganizationUserIdsOfFarm: async () => [...users, ...esc.orgUsers].map((u) => u._id),
          }
        : {}),
    },
    alerts,
    sender: snsAlertSender(emailTopics),
    now: () => clock,
    log,
  });
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  const states = () => Object.fromEntries([...deliveries.values()].map((d) => [`${d.user_id}:${d.channel}`, d.state]));
  /** What changes after an alert was planned: a person's escalation setting, the organization's members. */
  const setEscalation = (id: string, settings: EscalationSettings) => {
    if (esc) esc.settings[id] = settings;
  };
  const removeOrgUser = (id: string) => {
    if (esc) esc.orgUsers.splice(esc.orgUsers.findIndex((u) => u._id === id), 1);
  };
  /** Someone joins the farm after the alert was planned. */
  const addFarmUser = (u: User) => {
    users.push(u);
    accounts.push(u);
  };
  return { notifier, finished, deliveries, states, sms: () => sms, advance, lines, setEscalation, removeOrgUser, addFarmUser };
};

/** What a publish was: the channel attribute each one carries (one publish, one channel). */
export const channelOf = (p: PublishCommandInput) => p.MessageAttributes?.channel?.StringValue;

export const published = () => sns.commandCalls(PublishCommand).map((c) => c.args[0].input);

/** Before each test: SNS forgets its calls and answers topics, subscriptions and publishes again. */
export const resetSns = () => {
  sns.reset();
  mockTopics();
  sns.on(PublishCommand).resolves({ MessageId: 'm' });
};
