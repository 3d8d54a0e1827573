import { CreateTopicCommand, GetSubscriptionAttributesCommand, PublishCommand, SNSClient, SubscribeCommand, type PublishCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ESCALATION, type EscalationSettings } from '../../shared/alerts/escalation';
import { defaultPreferences, mergePreferences, type Preferences } from '../../shared/alerts/preferences';
import type { Farm } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';
import type { Delivery, StoredNotification } from '../ports/alerts';
import { alertEmailTopics } from '../adapters/sns/alert-email';
import type { AlertEmailRoute } from '../ports/alert-email';
import { snsAlertSender } from '../adapters/sns/alert-sender';
import { createLogger } from '../lib/logger';
import { localMonth } from '../../shared/time/local-day';
import { makeNotifier } from './notifier';
import { LEASE_MS, MAX_ATTEMPTS, RETRY_BACKOFF_MS, type NotifierDeps } from './notifier-deps';

const ARN = 'arn:aws:sns:us-east-1:000000000000:';
const PREFIX = 'vatman-test-alert-email-';
/** Each user's own alert-email topic. */
const topicOf = (userId: string) => `${ARN}${PREFIX}${userId}`;
const sns = mockClient(SNSClient);
/** SNS answers topics and subscriptions as AWS does: the ARN from the name, a subscription under its topic. */
const mockTopics = () => {
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
const user = (o: Partial<User> & Pick<User, '_id' | 'email'>): User => ({
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
const alert = (o: Partial<StoredNotification> = {}): StoredNotification => ({
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
const world = (
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
const channelOf = (p: PublishCommandInput) => p.MessageAttributes?.channel?.StringValue;

const published = () => sns.commandCalls(PublishCommand).map((c) => c.args[0].input);

beforeEach(() => {
  sns.reset();
  mockTopics();
  sns.on(PublishCommand).resolves({ MessageId: 'm' });
});

describe('the notifier', () => {
  it('texts and emails a user with both on, naming farm, vat, what happened and when in local time, in one SMS segment', async () => {
    const w = world([user({ _id: 'u1', email: 'farmer@vatman.local' })]);
    expect(await w.notifier.deliver(alert())).toBe('done');
    const [text, email] = published();
    // Both through the user's own topic, each picked by its channel attribute.
    expect(text).toMatchObject({ TopicArn: topicOf('u1'), MessageAttributes: { channel: { StringValue: 'sms' }, 'AWS.SNS.SMS.SMSType': { StringValue: 'Transactional' } } });
    // 03:30 UTC is 16:30 in Auckland (NZDT, +13).
    expect(text?.Message).toBe('Vat-Man Totara Downs Vat 1: Milk over 6C (8.5C, 4320 L) at 16:30 Sun 22 Nov.');
    expect(text?.Message?.length).toBeLessThanOrEqual(160);
    expect(email).toMatchObject({ TopicArn: topicOf('u1'), MessageAttributes: { channel: { StringValue: 'email' } } });
    // The topic's two subscriptions: the address and the verified phone, each filtered to its channel.
    expect(sns.commandCalls(SubscribeCommand).map((c) => c.args[0].input)).toEqual([
      { TopicArn: topicOf('u1'), Protocol: 'email', Endpoint: 'farmer@vatman.local', ReturnSubscriptionArn: true, Attributes: { FilterPolicy: '{"channel":["email"]}' } },
      { TopicArn: topicOf('u1'), Protocol: 'sms', Endpoint: '+64211234567', ReturnSubscriptionArn: true, Attributes: { FilterPolicy: '{"channel":["sms"]}' } },
    ]);
    expect(email?.Message).toContain('Totara Downs, Vat 1');
    expect(w.finished.get(alert()._id)).toBe('done');
    expect(w.states()).toEqual({ 'u1:sms': 'sent', 'u1:email': 'sent' });
    expect(w.sms()).toBe(1);
  });

  it('email only for a user who turned text off for that type', async () => {
    const prefs = { u1: mergePreferences(undefined, { milk_warm: { email: true, text: false } }) };
    const w = world([user({ _id: 'u1', email: 'farmer@vatman.local' })], prefs);
    await w.notifier.deliver(alert());
    expect(published().map(channelOf)).toEqual(['email']);
  });

  it('no text to a phone that is not verified: the email carries the alert, and the phone is not subscribed', async () => {
    const prefs = { u1: mergePreferences(undefined, { milk_warm: { email: false, text: true } }) };
    const w = world([user({ _id: 'u1', email: 'a@b.nz', phone_verify: 1 })], prefs);
    await w.notifier.deliver(alert());
    expect(published().map(channelOf)).toEqual(['email']);
    expect(sns.commandCalls(SubscribeCommand).map((c) => c.args[0].input.Protocol)).toEqual(['email']);
    expect(w.sms()).toBe(0);
  });

  it('delivering the same alert again (a retry, a second sweep) sends nothing twice', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })]);
    await w.notifier.deliver(alert());
    await w.notifier.deliver(alert());
    await w.notifier.retryPending();
    expect(published().map(channelOf)).toEqual(['sms', 'email']);
    expect(w.sms()).toBe(1);
  });

  it('a failed send is due again after its backoff and sent once; the other channel is not sent again', async () => {
    sns.reset();
    mockTopics();
    sns.on(PublishCommand).rejectsOnce(new Error('Throttling')).resolves({ MessageId: 'm' });
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })]);
    expect(await w.notifier.deliver(alert())).toBe('pending');
    expect(w.states()).toEqual({ 'u1:sms': 'pending', 'u1:email': 'sent' });
    // Not before its backoff …
    expect(await w.notifier.retryPending()).toBe(0);
    w.advance(RETRY_BACKOFF_MS[0]);
    // … then once.
    expect(await w.notifier.retryPending()).toBe(1);
    expect(await w.notifier.retryPending()).toBe(0);
    expect(published().map(channelOf)).toEqual(['sms', 'email', 'sms']);
    expect(w.states()).toEqual({ 'u1:sms': 'sent', 'u1:email': 'sent' });
  });

  it('a sender that crashed mid-send: its delivery is taken again only when the lease ends, and sent once', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })], { u1: mergePreferences(undefined, { milk_warm: { email: true, text: false } }) });
    // Planned and claimed by a sender that never came back (the claim holds, nothing was marked).
    sns.reset();
    mockTopics();
    sns.on(PublishCommand).callsFake(() => new Promise(() => undefined));
    void w.notifier.deliver(alert());
    await new Promise((r) => setTimeout(r, 20));
    expect(w.states()).toEqual({ 'u1:email': 'sending' });
    sns.reset();
    mockTopics();
    sns.on(PublishCommand).resolves({ MessageId: 'm' });
    expect(await w.notifier.retryPending()).toBe(0);
    w.advance(LEASE_MS);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(published()).toHaveLength(1);
  });

  it('a text that fails for good is a dead letter (metric DeliveryDeadLetters), its allowance given back, and the alert goes by email', async () => {
    sns.reset();
    mockTopics();
    sns.on(PublishCommand, { MessageAttributes: { channel: { DataType: 'String', StringValue: 'sms' }, 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' }, 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: 'VatMan' } } }).rejects(new Error('Opted out'));
    sns.on(PublishCommand, { MessageAttributes: { channel: { DataType: 'String', StringValue: 'email' } } }).resolves({ MessageId: 'm' });
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })], { u1: mergePreferences(undefined, { milk_warm: { email: false, text: true } }) });
    await w.notifier.deliver(alert());
    for (const wait of RETRY_BACKOFF_MS) {
      w.advance(wait);
      await w.notifier.retryPending();
    }
    expect(w.states()).toEqual({ 'u1:sms': 'dead', 'u1:email': 'sent' });
    expect([...w.deliveries.values()].find((d) => d.channel === 'sms')?.attempts).toBe(MAX_ATTEMPTS);
    expect([...w.deliveries.values()].find((d) => d.channel === 'email')?.fallback).toBe(true);
    expect(w.sms()).toBe(0);
    const dead = w.lines.filter((l) => l.message === 'alert delivery dead-lettered');
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ DeliveryDeadLetters: 1, _aws: { CloudWatchMetrics: [{ Namespace: 'VatMan', Metrics: [{ Name: 'DeliveryDeadLetters' }] }] } });
  });

  it('an email to an address not confirmed is not sent nor marked sent: it says so, and the alert goes by text instead', async () => {
    sns.on(GetSubscriptionAttributesCommand).resolves({ Attributes: { PendingConfirmation: 'true' } });
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })], { u1: mergePreferences(undefined, { milk_warm: { email: true, text: false } }) });
    expect(await w.notifier.deliver(alert())).toBe('done');
    expect(w.states()).toEqual({ 'u1:email': 'unconfirmed', 'u1:sms': 'sent' });
    expect(published().map(channelOf)).toEqual(['sms']);
  });

  it('when the monthly text allowance is used up, email instead and say so', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })], {}, 120);
    await w.notifier.deliver(alert());
    const calls = published();
    expect(calls.map(channelOf)).toEqual(['email']);
    expect(calls[0]?.Message).toContain('used all 120 texts of its monthly text allowance');
  });

  it('every linked user is notified', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' }), user({ _id: 'u2', email: 'c@d.nz', phone: '+64219999999' })]);
    await w.notifier.deliver(alert());
    expect(published().map((p) => `${p.TopicArn?.slice(-2)}:${channelOf(p)}`).sort()).toEqual(['u1:email', 'u1:sms', 'u2:email', 'u2:sms']);
  });

  it('a showroom account (is_demo) linked to the farm gets nothing and uses none of the text allowance', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' }), user({ _id: 'u2', email: 'demo@d.nz', phone: '+64219999999', is_demo: true })]);
    await w.notifier.deliver(alert());
    expect(published().map((p) => p.TopicArn)).toEqual([topicOf('u1'), topicOf('u1')]);
    expect(w.sms()).toBe(1);
  });

  it('an alert from readings over 12 hours old is listed but not sent, and says so', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })]);
    const old = alert({ data: { published_at: '2026-11-21T15:00:00.000Z', temp1: 8, milk_volume: 4000, agitator_status: 1 } });
    expect(await w.notifier.deliver(old)).toBe('done');
    expect(published()).toEqual([]);
    expect(w.finished.get(old._id)).toBe('too_old');
    expect(w.deliveries.size).toBe(0);
  });

  it('counts texts in the farm’s local month', () => {
    // 11:30 UTC on 30 Nov is 00:30 on 1 Dec in Auckland.
    expect(localMonth(new Date('2026-11-30T11:30:00.000Z'), 'Pacific/Auckland')).toBe('2026-12');
  });
});

describe('escalation of an unread critical alert', () => {
  const farmer = user({ _id: 'u1', email: 'farmer@vatman.local' });
  const member = user({ _id: 'o1', email: 'member@vatman.local', phone: '+64211234599' });
  const quiet = user({ _id: 'o2', email: 'quiet@vatman.local', phone: '+64211234598' });
  const texts = () => published().filter((p) => channelOf(p) === 'sms');
  const setup = (o: { status?: () => 1 | 2 | 3; smsUsed?: number; type?: StoredNotification['type'] } = {}) =>
    world([farmer], {}, o.smsUsed ?? 0, {
      settings: { u1: { minutes: 15, organization: false }, o1: { minutes: 10, organization: true }, o2: { minutes: 15, organization: false } },
      orgUsers: [member, quiet],
      stored: () => alert({ status: o.status?.() ?? 1, ...(o.type ? { type: o.type } : {}) }),
    });

  it('texts it again to the farm user after their N, and to the opted-in organization member after 2N of theirs; nothing twice', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    expect(texts()).toHaveLength(1);
    // Created 03:30:02; the clock is 03:31. Step 1 due 03:45:02, step 2 (member's N 10) 03:50:02.
    w.advance(13 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    w.advance(2 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)).toMatchObject({ TopicArn: topicOf('u1'), Message: 'Vat-Man Totara Downs Vat 1: Still unread: Milk over 6C (8.5C, 4320 L) at 16:30 Sun 22 Nov.' });
    w.advance(5 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('o1'));
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    // The farmer's own email, and the quiet member (not opted in) has nothing.
    expect(published().map((p) => p.TopicArn)).not.toContain(topicOf('o2'));
    expect(w.sms()).toBe(3);
  });

  it('a read alert is not escalated: the steps are settled skipped, no text counted', async () => {
    let status: 1 | 2 = 1;
    const w = setup({ status: () => status });
    await w.notifier.deliver(alert());
    // A step's text is counted when it goes, not when planned.
    expect(w.sms()).toBe(1);
    status = 2;
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    expect(texts()).toHaveLength(1);
    expect([...w.deliveries.values()].filter((d) => d.escalation).map((d) => [d.user_id, d.escalation, d.state, d.last_error])).toEqual([
      ['u1', 1, 'skipped', 'the alert was read before the escalation was due'],
      ['o1', 2, 'skipped', 'the alert was read before the escalation was due'],
    ]);
    expect(w.sms()).toBe(1);
  });

  it('a step whose person left the organization, or turned escalation off, since the alert came is skipped', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    expect(w.sms()).toBe(1);
    // After planning: the farmer turns escalation off, the member leaves the organization.
    w.setEscalation('u1', { minutes: null, organization: false });
    w.removeOrgUser('o1');
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    expect(texts()).toHaveLength(1);
    const error = 'the user no longer has this escalation (left the farm or organization, or turned it off)';
    expect([...w.deliveries.values()].filter((d) => d.escalation).map((d) => [d.user_id, d.escalation, d.state, d.last_error])).toEqual([
      ['u1', 1, 'skipped', error],
      ['o1', 2, 'skipped', error],
    ]);
    expect(w.sms()).toBe(1);
  });

  it('steps are planned again when one comes due: someone who joined or opted in since gets theirs, due at once if its time has passed', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    // After planning: the quiet member opts in (step 2 at 2 × 15 = 04:00:02), a new farm user joins (N 5: step 1 due 03:35:02, already past).
    w.setEscalation('o2', { minutes: 15, organization: true });
    const newcomer = user({ _id: 'u2', email: 'newcomer@vatman.local', phone: '+64211234597' });
    w.addFarmUser(newcomer);
    w.setEscalation('u2', { minutes: 5, organization: false });
    w.advance(14 * 60_000 + 2_000);
    // 03:45:02: the farmer's step 1 is due; planning again adds the newcomer's (past due) and the member's.
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().map((p) => p.TopicArn)).toEqual([topicOf('u1'), topicOf('u1')]);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('u2'));
    w.advance(15 * 60_000);
    // 04:00:02: o1's step 2 (03:50:02) and o2's (04:00:02).
    expect(await w.notifier.retryPending()).toBe(2);
    expect(texts().slice(-2).map((p) => p.TopicArn).sort()).toEqual([topicOf('o1'), topicOf('o2')]);
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    expect([...w.deliveries.values()].filter((d) => d.escalation).map((d) => [d.user_id, d.escalation, d.state])).toEqual([
      ['u1', 1, 'sent'],
      ['o1', 2, 'sent'],
      ['u2', 1, 'sent'],
      ['o2', 2, 'sent'],
    ]);
  });

  it('a step whose person lengthened their minutes since waits for the new time, and the detail shows it', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    w.setEscalation('u1', { minutes: 40, organization: false });
    w.advance(14 * 60_000 + 2_000);
    expect(await w.notifier.retryPending()).toBe(0);
    const step = () => [...w.deliveries.values()].find((d) => d.user_id === 'u1' && d.escalation === 1);
    expect(step()).toMatchObject({ state: 'pending', due_at: '2026-11-22T04:10:02.000Z', escalation_due: '2026-11-22T04:10:02.000Z' });
    // Nobody else's step moved: the member's step 2 (N 10) goes at 03:50:02.
    w.advance(5 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('o1'));
    w.advance(20 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('u1'));
    expect(step()?.state).toBe('sent');
    expect(w.sms()).toBe(3);
  });

  it('with the text allowance used up, the step goes by email saying why', async () => {
    const w = setup({ smsUsed: 119 });
    await w.notifier.deliver(alert());
    w.advance(16 * 60_000);
    await w.notifier.retryPending();
    const steps = [...w.deliveries.values()].filter((d) => d.escalation === 1);
    expect(steps.map((d) => [d.channel, d.state, d.last_error])).toEqual([
      ['sms', 'skipped', "the farm's 120 texts of this month are used up"],
      ['email', 'sent', undefined],
    ]);
    expect(w.sms()).toBe(120);
    expect(published().at(-1)?.Subject).toBe('Vat-Man alert: Totara Downs Vat 1 - Still unread: Milk over 6C');
  });

  it('an alert that is not critical (104 too cold) has no steps', async () => {
    const w = setup({ type: 104 });
    await w.notifier.deliver(alert({ type: 104 }));
    expect([...w.deliveries.values()].filter((d) => d.escalation)).toEqual([]);
  });
});
