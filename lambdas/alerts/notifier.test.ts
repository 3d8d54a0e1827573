import { CreateTopicCommand, PublishCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultPreferences, mergePreferences, type Preferences } from '../../shared/alerts/preferences';
import type { Farm } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';
import type { AlertsRepository, StoredNotification } from '../adapters/dynamodb/alerts-repository';
import { alertEmailTopics, type AlertEmailRoute } from '../adapters/sns/alert-email';
import { snsAlertSender } from '../adapters/sns/alert-sender';
import { createLogger } from '../lib/logger';
import { localMonth } from '../../shared/time/local-day';
import { makeNotifier, type NotifierDeps } from './notifier';

const ARN = 'arn:aws:sns:us-east-1:000000000000:';
const PREFIX = 'vatman-test-alert-email-';
/** Each user's own alert-email topic. */
const topicOf = (userId: string) => `${ARN}${PREFIX}${userId}`;
const sns = mockClient(SNSClient);
/** SNS answers topics and subscriptions as AWS does: the ARN from the name, a subscription under its topic. */
const mockTopics = () => {
  sns.on(CreateTopicCommand).callsFake((input: { Name: string }) => ({ TopicArn: `${ARN}${input.Name}` }));
  sns.on(SubscribeCommand).callsFake((input: { TopicArn: string }) => ({ SubscriptionArn: `${input.TopicArn}:3f1c` }));
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

/** In-memory ports: users, preferences, the delivery bookkeeping and the month's text count. */
const world = (users: User[], prefs: Record<string, Preferences> = {}, smsUsed = 0) => {
  const sent = new Map<string, Set<string>>();
  const finished = new Set<string>();
  let sms = smsUsed;
  const alerts: NotifierDeps['alerts'] = {
    async markSent(_f, id, key) {
      sent.set(id, (sent.get(id) ?? new Set()).add(key));
    },
    async finishDelivery(_f, id) {
      finished.add(id);
    },
    async reserveSms(_f, _m, total) {
      if (sms >= total) return false;
      sms += 1;
      return true;
    },
    async releaseSms() {
      sms -= 1;
    },
    listPendingDelivery: async () => [],
  } satisfies Pick<AlertsRepository, 'markSent' | 'finishDelivery' | 'reserveSms' | 'releaseSms' | 'listPendingDelivery'>;
  const routes = new Map<string, AlertEmailRoute>();
  const emailTopics = alertEmailTopics(new SNSClient({ region: 'us-east-1' }), `${ARN}${PREFIX}`, {
    getEmailRoute: async (id) => routes.get(id),
    putEmailRoute: async (id, route) => void routes.set(id, route),
  });
  const notifier = makeNotifier({
    farms: { getFarm: async () => farm, getUser: async (id) => users.find((u) => u._id === id) },
    settings: {
      listUserIdsOfFarm: async () => users.map((u) => u._id),
      getPreferencesOf: async (ids) => new Map(ids.map((id) => [id, prefs[id] ?? defaultPreferences()])),
    },
    alerts,
    sender: snsAlertSender(new SNSClient({ region: 'us-east-1' }), emailTopics),
    now: () => new Date('2026-11-22T03:31:00.000Z'),
    log: createLogger({}, 'error'),
    sleep: async () => undefined,
  });
  return { notifier, sent, finished, sms: () => sms };
};

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
    expect(text?.PhoneNumber).toBe('+64211234567');
    // 03:30 UTC is 16:30 in Auckland (NZDT, +13).
    expect(text?.Message).toBe('Vat-Man Totara Downs Vat 1: Milk over 6C (8.5C, 4320 L) at 16:30 Sun 22 Nov.');
    expect(text?.Message?.length).toBeLessThanOrEqual(160);
    // To the user's own topic, whose one subscription is their address.
    expect(email).toMatchObject({ TopicArn: topicOf('u1') });
    expect(sns.commandCalls(SubscribeCommand).map((c) => c.args[0].input)).toEqual([
      { TopicArn: topicOf('u1'), Protocol: 'email', Endpoint: 'farmer@vatman.local', ReturnSubscriptionArn: true },
    ]);
    expect(email?.Message).toContain('Totara Downs, Vat 1');
    expect(w.finished.has(alert()._id)).toBe(true);
    expect(w.sms()).toBe(1);
  });

  it('email only for a user who turned text off for that type', async () => {
    const prefs = { u1: mergePreferences(undefined, { milk_warm: { email: true, text: false } }) };
    const w = world([user({ _id: 'u1', email: 'farmer@vatman.local' })], prefs);
    await w.notifier.deliver(alert());
    expect(published().map((p) => (p.PhoneNumber ? 'sms' : 'email'))).toEqual(['email']);
  });

  it('no text to a phone that is not verified: the email carries the alert', async () => {
    const prefs = { u1: mergePreferences(undefined, { milk_warm: { email: false, text: true } }) };
    const w = world([user({ _id: 'u1', email: 'a@b.nz', phone_verify: 1 })], prefs);
    await w.notifier.deliver(alert());
    expect(published().map((p) => (p.PhoneNumber ? 'sms' : 'email'))).toEqual(['email']);
    expect(w.sms()).toBe(0);
  });

  it('a send that fails twice then succeeds is delivered once and the alert is not lost', async () => {
    sns.reset();
    mockTopics();
    sns.on(PublishCommand).rejectsOnce(new Error('Throttling')).rejectsOnce(new Error('Throttling')).resolves({ MessageId: 'm' });
    const prefs = { u1: mergePreferences(undefined, { milk_warm: { email: false, text: true } }) };
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })], prefs);
    expect(await w.notifier.deliver(alert())).toBe('done');
    expect(sns.commandCalls(PublishCommand)).toHaveLength(3);
    expect([...(w.sent.get(alert()._id) ?? [])]).toEqual(['u1:sms']);
    expect(w.sms()).toBe(1);
  });

  it('a send that keeps failing leaves the alert pending; the retry sends only what is missing', async () => {
    sns.reset();
    mockTopics();
    // The text goes out; every email attempt fails this run.
    sns.on(PublishCommand, { TopicArn: topicOf('u1') }).rejects(new Error('down'));
    sns.on(PublishCommand, { PhoneNumber: '+64211234567' }).resolves({ MessageId: 'm' });
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })]);
    expect(await w.notifier.deliver(alert())).toBe('pending');
    expect(w.finished.size).toBe(0);
    sns.reset();
    mockTopics();
    sns.on(PublishCommand).resolves({ MessageId: 'm' });
    expect(await w.notifier.deliver(alert({ delivered: [...(w.sent.get(alert()._id) ?? [])] }))).toBe('done');
    expect(published().map((p) => (p.PhoneNumber ? 'sms' : 'email'))).toEqual(['email']);
  });

  it('when the monthly text allowance is used up, email instead and say so', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })], {}, 120);
    await w.notifier.deliver(alert());
    const calls = published();
    expect(calls.map((p) => (p.PhoneNumber ? 'sms' : 'email'))).toEqual(['email']);
    expect(calls[0]?.Message).toContain('used all 120 texts of its monthly text allowance');
  });

  it('every linked user is notified', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' }), user({ _id: 'u2', email: 'c@d.nz', phone: '+64219999999' })]);
    await w.notifier.deliver(alert());
    expect(published()).toHaveLength(4);
  });

  it('a showroom account (is_demo) linked to the farm gets nothing and uses none of the text allowance', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' }), user({ _id: 'u2', email: 'demo@d.nz', phone: '+64219999999', is_demo: true })]);
    await w.notifier.deliver(alert());
    expect(published().map((p) => p.PhoneNumber ?? 'email')).toEqual([expect.not.stringMatching('9999999'), 'email']);
    expect(w.sms()).toBe(1);
  });

  it('an alert from readings over 12 hours old is listed but not sent', async () => {
    const w = world([user({ _id: 'u1', email: 'a@b.nz' })]);
    const old = alert({ data: { published_at: '2026-11-21T15:00:00.000Z', temp1: 8, milk_volume: 4000, agitator_status: 1 } });
    expect(await w.notifier.deliver(old)).toBe('done');
    expect(published()).toEqual([]);
    expect(w.finished.has(old._id)).toBe(true);
  });

  it('counts texts in the farm’s local month', () => {
    // 11:30 UTC on 30 Nov is 00:30 on 1 Dec in Auckland.
    expect(localMonth(new Date('2026-11-30T11:30:00.000Z'), 'Pacific/Auckland')).toBe('2026-12');
  });
});
