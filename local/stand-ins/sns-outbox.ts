import { createServer, type Server, type ServerResponse } from 'node:http';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { attributesOf, fail, ok } from './sns-query';
import { CONFIRMATION_SUBJECT, loadSnsTopics } from './sns-topics';

/** One message the product sent: an SMS (to a phone number), an email (to an address subscribed to a topic), or a push (local/stand-ins/push-service.ts). */
export interface OutboxMessage {
  readonly id: string;
  readonly at: string;
  readonly channel: 'sms' | 'email' | 'push';
  /** Phone number for SMS; the address for email; the subscription's endpoint for a push. */
  readonly to: string;
  /** The topic it was published to (one entry per subscription the publish reached). */
  readonly topic?: string;
  /** The publish's MessageId (one publish can reach several subscriptions). */
  readonly message_id?: string;
  readonly subject?: string;
  readonly message: string;
  readonly attributes: Record<string, string>;
}

/**
 * SNS stand-in: answers the SNS query protocol's Publish, CreateTopic, Subscribe, Unsubscribe,
 * GetSubscriptionAttributes and SetSubscriptionAttributes, so the product uses the real
 * @aws-sdk/client-sns with only SNS_ENDPOINT changed. Topics hold `email` and `sms`
 * subscriptions, each with an optional filter policy on message attributes (exact string values,
 * `{"channel":["sms"]}`); a publish to a topic is one entry per confirmed subscription whose filter
 * admits it. An email subscription is pending until its confirmation link is followed: Subscribe
 * (and Subscribe again, a resend) puts AWS's confirmation email in the outbox with a link to
 * `GET /confirm?Token=…`; addresses given as `preconfirmed` (the demo accounts, who stand for
 * people who confirmed long ago) are confirmed at once. A pending subscription is gone after
 * three days by the given clock. `setDown(true)` makes every SNS call fail with a 500 until
 * `setDown(false)` (an outage, for the fault tests). Messages are appended to a JSON-lines file,
 * topics and subscriptions kept beside it (both survive restarts); GET /messages reads the messages.
 */
export interface SnsOutbox {
  readonly server: Server;
  readonly endpoint: string;
  read(): OutboxMessage[];
  /** For mail that does not go through SNS in AWS either (Cognito's own emails). */
  append(entry: Omit<OutboxMessage, 'id' | 'at' | 'attributes'>): OutboxMessage;
  /** A topic with one confirmed email subscription, as a deploy makes it (CDK's Topic and EmailSubscription); answers its ARN. */
  ensureEmailTopic(name: string, email: string): string;
  /** An outage: every SNS call fails until switched back. */
  setDown(down: boolean): void;
}

interface SnsOutboxOptions {
  /** Addresses whose email subscriptions count as confirmed at once. */
  readonly preconfirmed?: (email: string) => boolean;
  readonly now?: () => Date;
}

export const startSnsOutbox = async (port: number, file: string, options: SnsOutboxOptions = {}): Promise<SnsOutbox> => {
  const now = options.now ?? (() => new Date());
  const endpoint = `http://127.0.0.1:${port}`;
  let down = false;
  mkdirSync(dirname(file), { recursive: true });
  const append = (entry: Omit<OutboxMessage, 'id' | 'at' | 'attributes'> & { attributes?: Record<string, string> }): OutboxMessage => {
    const full: OutboxMessage = { id: randomUUID(), at: now().toISOString(), attributes: {}, ...entry };
    appendFileSync(file, `${JSON.stringify(full)}\n`);
    return full;
  };
  const read = (): OutboxMessage[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as OutboxMessage)
      : [];
  const topics = loadSnsTopics({
    file: join(dirname(file), 'topics.json'),
    now,
    preconfirmed: options.preconfirmed,
    confirmationMail: (sub) =>
      append({
        channel: 'email',
        to: sub.endpoint,
        topic: sub.topic,
        subject: CONFIRMATION_SUBJECT,
        message: `You have chosen to subscribe to the topic:\n${sub.topic}\n\nTo confirm this subscription, click or visit the link below (If this was in error no action is necessary):\n${endpoint}/confirm?Token=${sub.token}`,
      }),
  });

  /** Publish: to a phone number (one SMS) or to a topic (one entry per confirmed subscription its filter admits). */
  const publish = (form: URLSearchParams, res: ServerResponse) => {
    const phone = form.get('PhoneNumber');
    const topic = form.get('TopicArn') ?? form.get('TargetArn');
    const message = form.get('Message');
    if ((!phone && !topic) || !message) return fail(res, 400, 'InvalidParameter', 'Publish needs Message and PhoneNumber or TopicArn');
    if (phone && !/^\+[1-9]\d{6,14}$/.test(phone)) return fail(res, 400, 'InvalidParameter', `Invalid parameter: PhoneNumber Reason: ${phone} is not E.164`);
    const subject = form.get('Subject') ? { subject: form.get('Subject') ?? '' } : {};
    if (phone) {
      const entry = append({ channel: 'sms', to: phone, ...subject, message, attributes: attributesOf(form) });
      return ok(res, 'Publish', `<MessageId>${entry.id}</MessageId>`);
    }
    if (!topics.hasTopic(topic ?? '')) return fail(res, 404, 'NotFound', 'Topic does not exist');
    const messageId = randomUUID();
    const attributes = attributesOf(form);
    for (const sub of topics.reached(topic ?? '', attributes)) {
      append({ channel: sub.protocol, to: sub.endpoint, topic: topic ?? '', ...(sub.protocol === 'email' ? subject : {}), message, attributes, message_id: messageId });
    }
    return ok(res, 'Publish', `<MessageId>${messageId}</MessageId>`);
  };

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read()));
      return;
    }
    if (req.method === 'GET' && req.url?.startsWith('/confirm')) {
      // The link in the confirmation email, as a person would follow it.
      topics.expire();
      const arn = topics.confirm(new URL(req.url, endpoint).searchParams.get('Token'));
      if (!arn) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('This subscription does not exist or has expired.');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`Subscription confirmed!\nYou have successfully subscribed.\nYour subscription's id is:\n${arn}`);
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (down) {
        fail(res, 500, 'InternalError', 'The local SNS outbox is switched down (an outage)');
        return;
      }
      topics.expire();
      const form = new URLSearchParams(body);
      const action = form.get('Action');
      if (topics.answer(action, form, res)) return;
      if (action !== 'Publish') {
        fail(res, 400, 'InvalidAction', `The local SNS outbox answers Publish, CreateTopic, Subscribe, Unsubscribe, GetSubscriptionAttributes and SetSubscriptionAttributes, not ${action ?? '(none)'}`);
        return;
      }
      publish(form, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const setDown = (value: boolean) => {
    down = value;
  };
  return { server, endpoint, read, append, ensureEmailTopic: topics.ensureEmailTopic, setDown };
};
