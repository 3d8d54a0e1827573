import {
  CreateTopicCommand,
  GetSubscriptionAttributesCommand,
  PublishCommand,
  SetSubscriptionAttributesCommand,
  SubscribeCommand,
  UnsubscribeCommand,
  type SNSClient,
} from '@aws-sdk/client-sns';
import type { AlertEmailStatus, AlertEmailRoute, AlertEmailRoutes, EmailRecipient, SendResult, CallOptions, AlertEmailTopics } from '../../ports/alert-email';

/** The message attribute each publish carries; each subscription's filter policy admits one value. */
const CHANNEL_ATTRIBUTE = 'channel';
type AlertChannel = 'sms' | 'email';
const channelFilterPolicy = (channel: AlertChannel): string => JSON.stringify({ [CHANNEL_ATTRIBUTE]: [channel] });
/** An email route's status is read again after this, even when confirmed (the user may have unsubscribed). */
const STATUS_FRESH_MS = 24 * 60 * 60_000;

/** The name shown as the sender of SNS email and in its subscription-confirmation email. */
export const ALERT_EMAIL_DISPLAY_NAME = 'Vat-Man alerts';

/** A user's topic name: the stack's prefix and the Cognito sub (letters, digits, hyphens and underscores only). */
export const alertEmailTopicName = (prefix: string, userId: string): string => `${prefix}${userId}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 256);

/**
 * A user's topic from the ARN prefix CDK gives (`arn:aws:sns:<region>:<account>:<stack>-alert-email-`):
 * its name and ARN, known before it exists.
 */
export const alertEmailTopicOf = (arnPrefix: string, userId: string): { name: string; arn: string } => {
  const at = arnPrefix.lastIndexOf(':');
  const name = alertEmailTopicName(arnPrefix.slice(at + 1), userId);
  return { name, arn: `${arnPrefix.slice(0, at + 1)}${name}` };
};

/** The topic's policy: publishing only over TLS (as cdk-nag SNS3 asks of a stack's topics). */
export const alertEmailTopicPolicy = (topicArn: string): string =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'AllowPublishThroughSSLOnly',
        Effect: 'Deny',
        Principal: '*',
        Action: 'sns:Publish',
        Resource: topicArn,
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ],
  });

const isNotFound = (err: unknown): boolean => ['NotFoundException', 'NotFound', 'ResourceNotFoundException'].includes((err as { name?: string }).name ?? '');

/**
 * Alerts through SNS with a topic per user. Each user has a topic holding an
 * email subscription to the address on their user record and, while their phone is verified, an
 * SMS subscription to it; each subscription's filter policy admits one value of the `channel`
 * message attribute, so one publish reaches one channel. Publishing is then confined to the users'
 * topics (no `sns:Publish` on `*`, which publishing to a bare phone number would need):
 *  - `ensure` brings the topic's subscriptions in line with the user record: a new address gets a
 *    new email subscription, then the old one is removed (no alert to an address the user no
 *    longer has); a new verified phone gets an SMS subscription, an unverified or removed phone
 *    loses it. It runs before every publish, so any change made anywhere is followed at the next alert.
 *  - `status` reads the email subscription's confirmation (stored on the route); `resend` subscribes
 *    the address again, which makes SNS send a new confirmation email.
 *  - `email` publishes only to a confirmed route (SNS would drop the message unseen otherwise) and
 *    says so; `sms` publishes the text.
 * Why not one topic with a filter policy per address: SNS allows 200 filter policies per topic and
 * 10,000 per account by default, a filter change takes up to 15 minutes to apply, and a wrong or
 * late filter mails one farm's alerts to everyone; topics are 100,000 per account and a topic per
 * user cannot leak to another user.
 */
export const alertEmailTopics = (client: SNSClient, topicArnPrefix: string, routes: AlertEmailRoutes, now: () => Date = () => new Date()): AlertEmailTopics => {
  const unsubscribe = async (arn: string, o: CallOptions) => {
    try {
      await client.send(new UnsubscribeCommand({ SubscriptionArn: arn }), o);
    } catch (err) {
      // Already gone (the user unsubscribed, or an unconfirmed subscription expired).
      if (!isNotFound(err)) throw err;
    }
  };
  const subscribe = async (topicArn: string, protocol: AlertChannel, endpoint: string, o: CallOptions): Promise<string> => {
    const sub = await client.send(
      new SubscribeCommand({ TopicArn: topicArn, Protocol: protocol, Endpoint: endpoint, ReturnSubscriptionArn: true, Attributes: { FilterPolicy: channelFilterPolicy(protocol) } }),
      o,
    );
    if (!sub.SubscriptionArn) throw new Error('SNS Subscribe answered without a SubscriptionArn');
    return sub.SubscriptionArn;
  };

  const ensureEmail = async (user: EmailRecipient, current: AlertEmailRoute | undefined, o: CallOptions): Promise<AlertEmailRoute> => {
    if (current && current.email === user.email) {
      if (current.filtered) return current;
      // A route from before texts shared the topic: its email subscription gets the channel filter.
      try {
        await client.send(
          new SetSubscriptionAttributesCommand({ SubscriptionArn: current.subscription_arn, AttributeName: 'FilterPolicy', AttributeValue: channelFilterPolicy('email') }),
          o,
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
        // The subscription is gone (expired or unsubscribed): the route says so until a resend.
        return { ...current, status: 'expired', checked_at: now().toISOString(), filtered: true };
      }
      return { ...current, filtered: true };
    }
    // CreateTopic with the same name and attributes answers the existing topic.
    const wanted = alertEmailTopicOf(topicArnPrefix, user._id);
    const topic = await client.send(
      new CreateTopicCommand({ Name: wanted.name, Attributes: { DisplayName: ALERT_EMAIL_DISPLAY_NAME, Policy: alertEmailTopicPolicy(wanted.arn) } }),
      o,
    );
    if (!topic.TopicArn) throw new Error('SNS CreateTopic answered without a TopicArn');
    const subscriptionArn = await subscribe(topic.TopicArn, 'email', user.email, o);
    const at = now().toISOString();
    return {
      ...(current?.phone && current.sms_subscription_arn ? { phone: current.phone, sms_subscription_arn: current.sms_subscription_arn } : {}),
      email: user.email,
      topic_arn: topic.TopicArn,
      subscription_arn: subscriptionArn,
      subscribed_at: at,
      status: 'pending',
      checked_at: at,
      filtered: true,
    };
  };

  const ensure = async (user: EmailRecipient, o: CallOptions = {}): Promise<AlertEmailRoute> => {
    const current = await routes.getEmailRoute(user._id);
    let route = await ensureEmail(user, current, o);
    const stale: string[] = [];
    if (current && current.subscription_arn !== route.subscription_arn) stale.push(current.subscription_arn);
    if (route.phone !== user.phone) {
      if (route.sms_subscription_arn) stale.push(route.sms_subscription_arn);
      const { phone: _p, sms_subscription_arn: _s, ...rest } = route;
      route = user.phone ? { ...rest, phone: user.phone, sms_subscription_arn: await subscribe(route.topic_arn, 'sms', user.phone, o) } : rest;
    }
    if (route !== current) await routes.putEmailRoute(user._id, route);
    // The new route is stored before the old subscriptions go: nothing reaches an old address or phone.
    for (const arn of stale) await unsubscribe(arn, o);
    return route;
  };

  /** The email subscription's confirmation, read from SNS when not known confirmed within a day, and stored. */
  const status = async (user: EmailRecipient, o: CallOptions = {}): Promise<{ route: AlertEmailRoute; status: AlertEmailStatus }> => {
    const route = await ensure(user, o);
    const fresh = route.status === 'confirmed' && route.checked_at && now().getTime() - Date.parse(route.checked_at) < STATUS_FRESH_MS;
    if (fresh || route.status === 'expired') return { route, status: route.status ?? 'pending' };
    let read: AlertEmailStatus;
    try {
      const res = await client.send(new GetSubscriptionAttributesCommand({ SubscriptionArn: route.subscription_arn }), o);
      read = res.Attributes?.PendingConfirmation === 'false' ? 'confirmed' : 'pending';
    } catch (err) {
      if (!isNotFound(err)) throw err;
      read = 'expired';
    }
    const next = { ...route, status: read, checked_at: now().toISOString() };
    await routes.putEmailRoute(user._id, next);
    return { route: next, status: read };
  };

  /** Subscribes the address again (SNS sends a new confirmation email); a confirmed route is left as it is. */
  const resend = async (user: EmailRecipient, o: CallOptions = {}): Promise<AlertEmailStatus> => {
    const { route, status: s } = await status(user, o);
    if (s === 'confirmed') return s;
    const arn = await subscribe(route.topic_arn, 'email', user.email, o);
    const at = now().toISOString();
    await routes.putEmailRoute(user._id, { ...route, subscription_arn: arn, subscribed_at: at, status: 'pending', checked_at: at });
    return 'pending';
  };

  const publish = async (topicArn: string, channel: AlertChannel, input: { Message: string; Subject?: string }, extra: Record<string, string>, o: CallOptions) => {
    const attributes = { [CHANNEL_ATTRIBUTE]: channel, ...extra };
    const res = await client.send(
      new PublishCommand({
        TopicArn: topicArn,
        ...input,
        MessageAttributes: Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, { DataType: 'String', StringValue: v }])),
      }),
      o,
    );
    return res.MessageId;
  };

  const email = async (user: EmailRecipient, subject: string, body: string, o: CallOptions = {}): Promise<SendResult> => {
    const { route, status: s } = await status(user, o);
    if (s !== 'confirmed') return { sent: false, reason: 'unconfirmed' };
    const messageId = await publish(route.topic_arn, 'email', { Subject: subject.slice(0, 99), Message: body }, {}, o);
    return { sent: true, ...(messageId ? { messageId } : {}) };
  };

  /** A text to the user's verified phone through their topic (transactional, so it is not dropped as promotional). */
  const sms = async (user: EmailRecipient & { readonly phone: string }, text: string, o: CallOptions = {}): Promise<SendResult> => {
    const route = await ensure(user, o);
    const messageId = await publish(route.topic_arn, 'sms', { Message: text }, { 'AWS.SNS.SMS.SMSType': 'Transactional', 'AWS.SNS.SMS.SenderID': 'VatMan' }, o);
    return { sent: true, ...(messageId ? { messageId } : {}) };
  };

  return { ensure, status, resend, email, sms };
};
