import { CreateTopicCommand, PublishCommand, SubscribeCommand, UnsubscribeCommand, type SNSClient } from '@aws-sdk/client-sns';

/** Where a user's alert email goes: their own topic and the email subscription on it. */
export interface AlertEmailRoute {
  /** The address the subscription was made for (the user record's email at the time). */
  readonly email: string;
  readonly topic_arn: string;
  readonly subscription_arn: string;
  readonly subscribed_at: string;
}

/** The store of routes, one per user (Farms table, `USER#<sub>`/`ALERT_EMAIL`). */
export interface AlertEmailRoutes {
  getEmailRoute(userId: string): Promise<AlertEmailRoute | undefined>;
  putEmailRoute(userId: string, route: AlertEmailRoute): Promise<void>;
}

export interface EmailRecipient {
  readonly _id: string;
  readonly email: string;
}

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
 * Alert email through SNS with a topic per user (issue 6). SNS email goes only to a topic's
 * confirmed subscriptions, so each user has a topic holding one email subscription, to the address
 * on their user record:
 *  - `ensure` makes the route once the address is known (the Cognito post-confirmation trigger at
 *    sign-up) and replaces it when the address changed: a new subscription on the same topic, then
 *    the old one removed, so an alert never goes to an address the user no longer has. Until the
 *    user clicks the link in AWS's confirmation email, SNS holds their alert email back.
 *  - `send` publishes to the user's topic (ensuring the route first, so any change of address made
 *    anywhere is followed at the next alert).
 * Why not one topic with a filter policy per address: SNS allows 200 filter policies per topic and
 * 10,000 per account by default, a filter change takes up to 15 minutes to apply, and a wrong or
 * late filter mails one farm's alerts to everyone; topics are 100,000 per account and a topic per
 * user cannot leak to another user.
 */
export const alertEmailTopics = (client: SNSClient, topicArnPrefix: string, routes: AlertEmailRoutes, now: () => Date = () => new Date()) => {
  const ensure = async (user: EmailRecipient): Promise<AlertEmailRoute> => {
    const current = await routes.getEmailRoute(user._id);
    if (current && current.email === user.email) return current;
    // CreateTopic with the same name and attributes answers the existing topic.
    const wanted = alertEmailTopicOf(topicArnPrefix, user._id);
    const topic = await client.send(
      new CreateTopicCommand({ Name: wanted.name, Attributes: { DisplayName: ALERT_EMAIL_DISPLAY_NAME, Policy: alertEmailTopicPolicy(wanted.arn) } }),
    );
    if (!topic.TopicArn) throw new Error('SNS CreateTopic answered without a TopicArn');
    const sub = await client.send(new SubscribeCommand({ TopicArn: topic.TopicArn, Protocol: 'email', Endpoint: user.email, ReturnSubscriptionArn: true }));
    if (!sub.SubscriptionArn) throw new Error('SNS Subscribe answered without a SubscriptionArn');
    const route: AlertEmailRoute = { email: user.email, topic_arn: topic.TopicArn, subscription_arn: sub.SubscriptionArn, subscribed_at: now().toISOString() };
    await routes.putEmailRoute(user._id, route);
    if (current && current.subscription_arn !== sub.SubscriptionArn) {
      try {
        await client.send(new UnsubscribeCommand({ SubscriptionArn: current.subscription_arn }));
      } catch (err) {
        // Already gone (the user unsubscribed, or an unconfirmed subscription expired).
        if (!isNotFound(err)) throw err;
      }
    }
    return route;
  };

  const send = async (user: EmailRecipient, subject: string, body: string): Promise<void> => {
    const route = await ensure(user);
    await client.send(new PublishCommand({ TopicArn: route.topic_arn, Subject: subject.slice(0, 99), Message: body }));
  };

  return { ensure, send };
};
export type AlertEmailTopics = ReturnType<typeof alertEmailTopics>;
