import { beforeEach, describe, expect, it } from 'vitest';
import { GetSubscriptionAttributesCommand, PublishCommand, SubscribeCommand } from '@aws-sdk/client-sns';
import { mergePreferences } from '../../shared/alerts/preferences';
import { localMonth } from '../../shared/time/local-day';
import { LEASE_MS, MAX_ATTEMPTS, RETRY_BACKOFF_MS } from './notifier-deps';
import { alert, channelOf, mockTopics, published, resetSns, sns, topicOf, user, world } from '../../test/support/notifier-world';

beforeEach(resetSns);

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
