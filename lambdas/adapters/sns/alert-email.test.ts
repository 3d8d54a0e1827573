import { CreateTopicCommand, GetSubscriptionAttributesCommand, NotFoundException, PublishCommand, SetSubscriptionAttributesCommand, SNSClient, SubscribeCommand, UnsubscribeCommand } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ALERT_EMAIL_DISPLAY_NAME, alertEmailTopicName, alertEmailTopicOf, alertEmailTopicPolicy, alertEmailTopics } from './alert-email';
import type { AlertEmailRoute } from '../../ports/alert-email';

const ARN = 'arn:aws:sns:ap-southeast-2:123456789012:';
const PREFIX = 'VatManProd-alert-email-';
const SUB = '7d0c5e2a-41f3-4a57-9d7e-0b8f1f0c2a11';
const sns = mockClient(SNSClient);
let routes: Map<string, AlertEmailRoute>;
let n: number;

const topics = () =>
  alertEmailTopics(
    new SNSClient({ region: 'ap-southeast-2' }),
    `${ARN}${PREFIX}`,
    { getEmailRoute: async (id) => routes.get(id), putEmailRoute: async (id, r) => void routes.set(id, r) },
    () => new Date('2026-11-22T03:00:00.000Z'),
  );
const inputs = <T extends object>(command: new (input: T) => unknown) =>
  sns.commandCalls(command as never).map((c) => (c.args[0] as { input: T }).input);

beforeEach(() => {
  sns.reset();
  routes = new Map();
  n = 0;
  sns.on(CreateTopicCommand).callsFake((input: { Name: string }) => ({ TopicArn: `${ARN}${input.Name}` }));
  sns.on(SubscribeCommand).callsFake((input: { TopicArn: string }) => ({ SubscriptionArn: `${input.TopicArn}:s${(n += 1)}` }));
  sns.on(UnsubscribeCommand).resolves({});
  sns.on(PublishCommand).resolves({ MessageId: 'm' });
  sns.on(GetSubscriptionAttributesCommand).resolves({ Attributes: { PendingConfirmation: 'false' } });
  sns.on(SetSubscriptionAttributesCommand).resolves({});
});
const EMAIL_FILTER = { FilterPolicy: '{"channel":["email"]}' };
const AT = '2026-11-22T03:00:00.000Z';

describe('alert email through SNS, a topic per user', () => {
  it('makes the user a topic with one email subscription to their address, and remembers it', async () => {
    const route = await topics().ensure({ _id: SUB, email: 'aroha@example.nz' });
    expect(inputs(CreateTopicCommand)).toEqual([
      { Name: `${PREFIX}${SUB}`, Attributes: { DisplayName: ALERT_EMAIL_DISPLAY_NAME, Policy: alertEmailTopicPolicy(`${ARN}${PREFIX}${SUB}`) } },
    ]);
    // Publishing only over TLS, on this topic.
    expect(JSON.parse(alertEmailTopicPolicy(`${ARN}${PREFIX}${SUB}`))).toMatchObject({
      Statement: [{ Effect: 'Deny', Action: 'sns:Publish', Resource: `${ARN}${PREFIX}${SUB}`, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }],
    });
    expect(inputs(SubscribeCommand)).toEqual([{ TopicArn: `${ARN}${PREFIX}${SUB}`, Protocol: 'email', Endpoint: 'aroha@example.nz', ReturnSubscriptionArn: true, Attributes: EMAIL_FILTER }]);
    expect(route).toEqual({
      email: 'aroha@example.nz',
      topic_arn: `${ARN}${PREFIX}${SUB}`,
      subscription_arn: `${ARN}${PREFIX}${SUB}:s1`,
      subscribed_at: AT,
      status: 'pending',
      checked_at: AT,
      filtered: true,
    });
    expect(routes.get(SUB)).toEqual(route);
  });

  it('sends to the user’s topic; an unchanged address needs no new subscription (no second confirmation email)', async () => {
    const t = topics();
    await t.email({ _id: SUB, email: 'aroha@example.nz' }, 'Vat-Man: Totara Downs Vat 1 milk over 6C', 'body 1');
    await t.email({ _id: SUB, email: 'aroha@example.nz' }, 'second', 'body 2');
    expect(sns.commandCalls(SubscribeCommand)).toHaveLength(1);
    const email = { channel: { DataType: 'String', StringValue: 'email' } };
    expect(inputs(PublishCommand)).toEqual([
      { TopicArn: `${ARN}${PREFIX}${SUB}`, Subject: 'Vat-Man: Totara Downs Vat 1 milk over 6C', Message: 'body 1', MessageAttributes: email },
      { TopicArn: `${ARN}${PREFIX}${SUB}`, Subject: 'second', Message: 'body 2', MessageAttributes: email },
    ]);
    // Confirmed once, the status is not read again within a day.
    expect(sns.commandCalls(GetSubscriptionAttributesCommand)).toHaveLength(1);
  });

  it('a changed address gets a new subscription on the same topic, and the old one is removed after it', async () => {
    const t = topics();
    await t.ensure({ _id: SUB, email: 'aroha@example.nz' });
    await t.email({ _id: SUB, email: 'aroha.ngata@example.nz' }, 's', 'b');
    expect(inputs(SubscribeCommand).map((i) => i.Endpoint)).toEqual(['aroha@example.nz', 'aroha.ngata@example.nz']);
    expect(inputs(UnsubscribeCommand)).toEqual([{ SubscriptionArn: `${ARN}${PREFIX}${SUB}:s1` }]);
    expect(routes.get(SUB)).toMatchObject({ email: 'aroha.ngata@example.nz', subscription_arn: `${ARN}${PREFIX}${SUB}:s2` });
    expect(inputs(PublishCommand)[0]?.TopicArn).toBe(`${ARN}${PREFIX}${SUB}`);
    // The new route is stored before the old subscription goes: nothing is mailed to the old address.
    const order = sns.calls().map((c) => (c.args[0] as object).constructor.name);
    expect(order).toEqual(['CreateTopicCommand', 'SubscribeCommand', 'CreateTopicCommand', 'SubscribeCommand', 'UnsubscribeCommand', 'GetSubscriptionAttributesCommand', 'PublishCommand']);
  });

  it('an old subscription that is already gone (unsubscribed, expired) does not stop the change', async () => {
    routes.set(SUB, { email: 'old@example.nz', topic_arn: `${ARN}${PREFIX}${SUB}`, subscription_arn: `${ARN}${PREFIX}${SUB}:gone`, subscribed_at: '2026-01-01T00:00:00.000Z' });
    sns.on(UnsubscribeCommand).rejects(new NotFoundException({ message: 'Subscription does not exist', $metadata: {} }));
    await expect(topics().email({ _id: SUB, email: 'new@example.nz' }, 's', 'b')).resolves.toEqual({ sent: true, messageId: 'm' });
    expect(routes.get(SUB)?.email).toBe('new@example.nz');
  });

  it('a failure to subscribe fails the send (the notifier retries it) and stores no route', async () => {
    sns.on(SubscribeCommand).rejects(new Error('Throttling'));
    await expect(topics().email({ _id: SUB, email: 'aroha@example.nz' }, 's', 'b')).rejects.toThrow('Throttling');
    expect(routes.size).toBe(0);
    expect(sns.commandCalls(PublishCommand)).toHaveLength(0);
  });

  it('an address not confirmed gets no publish: the route says pending; once confirmed, it is sent', async () => {
    sns.on(GetSubscriptionAttributesCommand).resolvesOnce({ Attributes: { PendingConfirmation: 'true' } }).resolves({ Attributes: { PendingConfirmation: 'false' } });
    const t = topics();
    expect(await t.email({ _id: SUB, email: 'aroha@example.nz' }, 's', 'b')).toEqual({ sent: false, reason: 'unconfirmed' });
    expect(routes.get(SUB)?.status).toBe('pending');
    expect(sns.commandCalls(PublishCommand)).toHaveLength(0);
    expect(await t.email({ _id: SUB, email: 'aroha@example.nz' }, 's', 'b')).toEqual({ sent: true, messageId: 'm' });
    expect(routes.get(SUB)?.status).toBe('confirmed');
  });

  it('an expired subscription (gone from SNS) reads as expired; resend subscribes the address again', async () => {
    sns.on(GetSubscriptionAttributesCommand).rejects(new NotFoundException({ message: 'Subscription does not exist', $metadata: {} }));
    const t = topics();
    expect((await t.status({ _id: SUB, email: 'aroha@example.nz' })).status).toBe('expired');
    expect(await t.resend({ _id: SUB, email: 'aroha@example.nz' })).toBe('pending');
    expect(inputs(SubscribeCommand).map((i) => i.Endpoint)).toEqual(['aroha@example.nz', 'aroha@example.nz']);
    expect(routes.get(SUB)).toMatchObject({ status: 'pending', subscription_arn: `${ARN}${PREFIX}${SUB}:s2` });
  });

  it('a verified phone is subscribed for texts on the same topic; a changed or unverified phone loses its subscription', async () => {
    const t = topics();
    await t.ensure({ _id: SUB, email: 'aroha@example.nz', phone: '+64211234567' });
    expect(inputs(SubscribeCommand)[1]).toEqual({ TopicArn: `${ARN}${PREFIX}${SUB}`, Protocol: 'sms', Endpoint: '+64211234567', ReturnSubscriptionArn: true, Attributes: { FilterPolicy: '{"channel":["sms"]}' } });
    expect(routes.get(SUB)).toMatchObject({ phone: '+64211234567', sms_subscription_arn: `${ARN}${PREFIX}${SUB}:s2` });
    await t.ensure({ _id: SUB, email: 'aroha@example.nz', phone: '+64219999999' });
    expect(inputs(UnsubscribeCommand)).toEqual([{ SubscriptionArn: `${ARN}${PREFIX}${SUB}:s2` }]);
    expect(routes.get(SUB)).toMatchObject({ phone: '+64219999999', sms_subscription_arn: `${ARN}${PREFIX}${SUB}:s3` });
    await t.ensure({ _id: SUB, email: 'aroha@example.nz' });
    expect(inputs(UnsubscribeCommand)).toEqual([{ SubscriptionArn: `${ARN}${PREFIX}${SUB}:s2` }, { SubscriptionArn: `${ARN}${PREFIX}${SUB}:s3` }]);
    expect(routes.get(SUB)).not.toHaveProperty('phone');
    expect(routes.get(SUB)).not.toHaveProperty('sms_subscription_arn');
  });

  it('a route from before texts shared the topic gets the email filter on its subscription (no text reaches the inbox)', async () => {
    routes.set(SUB, { email: 'aroha@example.nz', topic_arn: `${ARN}${PREFIX}${SUB}`, subscription_arn: `${ARN}${PREFIX}${SUB}:old`, subscribed_at: '2026-01-01T00:00:00.000Z' });
    await topics().ensure({ _id: SUB, email: 'aroha@example.nz' });
    expect(inputs(SetSubscriptionAttributesCommand)).toEqual([{ SubscriptionArn: `${ARN}${PREFIX}${SUB}:old`, AttributeName: 'FilterPolicy', AttributeValue: '{"channel":["email"]}' }]);
    expect(routes.get(SUB)?.filtered).toBe(true);
    expect(sns.commandCalls(SubscribeCommand)).toHaveLength(0);
  });

  it('topic names keep to what SNS allows, and the ARN is known from the prefix', () => {
    expect(alertEmailTopicOf(`${ARN}${PREFIX}`, SUB)).toEqual({ name: `${PREFIX}${SUB}`, arn: `${ARN}${PREFIX}${SUB}` });
    expect(alertEmailTopicName('vatman-local-alert-email-', 'a.b@c')).toBe('vatman-local-alert-email-a-b-c');
    expect(alertEmailTopicName('p-', 'x'.repeat(300))).toHaveLength(256);
  });
});
