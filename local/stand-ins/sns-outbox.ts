import { createServer, type Server, type ServerResponse } from 'node:http';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';

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

const xml = (action: string, result: string, requestId: string) =>
  `<?xml version="1.0"?><${action}Response xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`;

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0"?><ErrorResponse xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;

/** MessageAttributes.entry.N.Name / .Value.StringValue as the query protocol sends them. */
const attributesOf = (form: URLSearchParams): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let n = 1; form.has(`MessageAttributes.entry.${n}.Name`); n += 1) {
    out[form.get(`MessageAttributes.entry.${n}.Name`) ?? ''] = form.get(`MessageAttributes.entry.${n}.Value.StringValue`) ?? '';
  }
  return out;
};

/** The account and region of local ARNs. */
const LOCAL_ARN = 'arn:aws:sns:us-east-1:000000000000:';

interface Subscription {
  readonly arn: string;
  readonly topic: string;
  readonly protocol: 'email' | 'sms';
  readonly endpoint: string;
  /** An email subscription waits for its confirmation link; SMS subscriptions are confirmed at once, as in SNS. */
  confirmed: boolean;
  readonly token: string;
  readonly subscribed_at: string;
  filter_policy?: string;
}
interface TopicsFile {
  topics: string[];
  subscriptions: Subscription[];
}

/** SNS deletes a subscription nobody confirmed after this (the outbox models it by the clock it is given). */
const UNCONFIRMED_EXPIRY_MS = 3 * 24 * 60 * 60_000;
export const CONFIRMATION_SUBJECT = 'AWS Notification - Subscription Confirmation';

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

/** Does a filter policy (attribute name to the string values it admits) admit these message attributes? */
const filterAdmits = (policy: string | undefined, attributes: Record<string, string>): boolean => {
  if (!policy) return true;
  const rules = JSON.parse(policy) as Record<string, unknown>;
  return Object.entries(rules).every(([name, values]) => Array.isArray(values) && attributes[name] !== undefined && values.includes(attributes[name]));
};
const validPolicy = (policy: string): boolean => {
  try {
    const rules = JSON.parse(policy) as unknown;
    return typeof rules === 'object' && rules !== null && Object.values(rules).every((v) => Array.isArray(v) && v.every((x) => typeof x === 'string'));
  } catch {
    return false;
  }
};
/** Attributes.entry.N.key / .value as the query protocol sends them. */
const subscribeAttributesOf = (form: URLSearchParams): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let n = 1; form.has(`Attributes.entry.${n}.key`); n += 1) out[form.get(`Attributes.entry.${n}.key`) ?? ''] = form.get(`Attributes.entry.${n}.value`) ?? '';
  return out;
};
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

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
  const topicsFile = join(dirname(file), 'topics.json');
  const state: TopicsFile = existsSync(topicsFile) ? (JSON.parse(readFileSync(topicsFile, 'utf8')) as TopicsFile) : { topics: [], subscriptions: [] };
  // Files from before confirmation was modelled: their subscriptions were all treated as confirmed.
  for (const sub of state.subscriptions) {
    if (sub.confirmed === undefined) Object.assign(sub, { confirmed: true, token: randomUUID(), subscribed_at: now().toISOString() });
  }
  const save = () => writeFileSync(topicsFile, `${JSON.stringify(state, null, 2)}\n`);
  /** SNS forgets a subscription nobody confirmed in three days. */
  const expire = () => {
    const cutoff = now().getTime() - UNCONFIRMED_EXPIRY_MS;
    const keep = state.subscriptions.filter((x) => x.confirmed || Date.parse(x.subscribed_at) > cutoff);
    if (keep.length !== state.subscriptions.length) {
      state.subscriptions = keep;
      save();
    }
  };
  const ok = (res: ServerResponse, action: string, result: string) =>
    res.writeHead(200, { 'content-type': 'text/xml' }).end(xml(action, result, randomUUID()));
  const fail = (res: ServerResponse, status: number, code: string, message: string) =>
    res.writeHead(status, { 'content-type': 'text/xml' }).end(xmlError(code, message));
  const confirmationMail = (sub: Subscription) =>
    append({
      channel: 'email',
      to: sub.endpoint,
      topic: sub.topic,
      subject: CONFIRMATION_SUBJECT,
      message: `You have chosen to subscribe to the topic:\n${sub.topic}\n\nTo confirm this subscription, click or visit the link below (If this was in error no action is necessary):\n${endpoint}/confirm?Token=${sub.token}`,
    });
  const findSub = (arn: string) => state.subscriptions.find((x) => x.arn === arn);

  /** Answers the topic and subscription actions; false for any other action. */
  const topicAction = (action: string | null, form: URLSearchParams, res: ServerResponse): boolean => {
    if (action === 'CreateTopic') {
      const name = form.get('Name') ?? '';
      if (!/^[A-Za-z0-9_-]{1,256}$/.test(name)) {
        fail(res, 400, 'InvalidParameter', 'Invalid parameter: Topic Name');
        return true;
      }
      const arn = `${LOCAL_ARN}${name}`;
      if (!state.topics.includes(arn)) {
        state.topics.push(arn);
        save();
      }
      ok(res, 'CreateTopic', `<TopicArn>${arn}</TopicArn>`);
      return true;
    }
    if (action === 'Subscribe') {
      const topic = form.get('TopicArn') ?? '';
      const protocol = form.get('Protocol') ?? '';
      const to = form.get('Endpoint') ?? '';
      const policy = subscribeAttributesOf(form).FilterPolicy;
      if (!state.topics.includes(topic)) {
        fail(res, 404, 'NotFound', 'Topic does not exist');
        return true;
      }
      if (protocol === 'email' ? !/^[^@\s]+@[^@\s]+$/.test(to) : protocol !== 'sms' || !/^\+[1-9]\d{6,14}$/.test(to)) {
        fail(res, 400, 'InvalidParameter', `Invalid parameter: ${protocol === 'sms' ? 'SMS endpoint' : protocol === 'email' ? 'Email address' : 'Protocol'}`);
        return true;
      }
      if (policy !== undefined && !validPolicy(policy)) {
        fail(res, 400, 'InvalidParameter', 'Invalid parameter: FilterPolicy: the outbox takes attribute names with lists of exact string values');
        return true;
      }
      // Subscribing an endpoint again answers its subscription, as SNS does; a pending email one gets its confirmation again.
      const existing = state.subscriptions.find((x) => x.topic === topic && x.protocol === protocol && x.endpoint === to);
      if (existing && (existing.filter_policy ?? '') !== (policy ?? '')) {
        fail(res, 400, 'InvalidParameter', 'Invalid parameter: Attributes Reason: Subscription already exists with different attributes');
        return true;
      }
      const confirmed = protocol === 'sms' || (options.preconfirmed?.(to) ?? false);
      const sub: Subscription = existing ?? {
        arn: `${topic}:${randomUUID()}`,
        topic,
        protocol: protocol === 'sms' ? 'sms' : 'email',
        endpoint: to,
        confirmed,
        token: randomUUID(),
        subscribed_at: now().toISOString(),
        ...(policy ? { filter_policy: policy } : {}),
      };
      if (!existing) {
        state.subscriptions.push(sub);
        save();
      }
      if (!sub.confirmed) confirmationMail(sub);
      ok(res, 'Subscribe', `<SubscriptionArn>${sub.arn}</SubscriptionArn>`);
      return true;
    }
    if (action === 'Unsubscribe') {
      const arn = form.get('SubscriptionArn') ?? '';
      if (!findSub(arn)) {
        fail(res, 404, 'NotFound', 'Subscription does not exist');
        return true;
      }
      state.subscriptions = state.subscriptions.filter((x) => x.arn !== arn);
      save();
      ok(res, 'Unsubscribe', '');
      return true;
    }
    if (action === 'GetSubscriptionAttributes') {
      const sub = findSub(form.get('SubscriptionArn') ?? '');
      if (!sub) {
        fail(res, 404, 'NotFound', 'Subscription does not exist');
        return true;
      }
      const attributes: Record<string, string> = {
        SubscriptionArn: sub.arn,
        TopicArn: sub.topic,
        Protocol: sub.protocol,
        Endpoint: sub.endpoint,
        Owner: '000000000000',
        PendingConfirmation: String(!sub.confirmed),
        ConfirmationWasAuthenticated: 'false',
        ...(sub.filter_policy ? { FilterPolicy: sub.filter_policy, FilterPolicyScope: 'MessageAttributes' } : {}),
      };
      const entries = Object.entries(attributes)
        .map(([key, value]) => `<entry><key>${key}</key><value>${escapeXml(value)}</value></entry>`)
        .join('');
      ok(res, 'GetSubscriptionAttributes', `<Attributes>${entries}</Attributes>`);
      return true;
    }
    if (action === 'SetSubscriptionAttributes') {
      const sub = findSub(form.get('SubscriptionArn') ?? '');
      const name = form.get('AttributeName');
      const value = form.get('AttributeValue') ?? '';
      if (!sub) {
        fail(res, 404, 'NotFound', 'Subscription does not exist');
        return true;
      }
      if (name !== 'FilterPolicy' || (value !== '' && !validPolicy(value))) {
        fail(res, 400, 'InvalidParameter', 'Invalid parameter: the outbox sets FilterPolicy only, as attribute names with lists of exact string values');
        return true;
      }
      if (value) sub.filter_policy = value;
      else delete sub.filter_policy;
      save();
      ok(res, 'SetSubscriptionAttributes', '');
      return true;
    }
    return false;
  };

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read()));
      return;
    }
    if (req.method === 'GET' && req.url?.startsWith('/confirm')) {
      // The link in the confirmation email, as a person would follow it.
      expire();
      const token = new URL(req.url, endpoint).searchParams.get('Token');
      const sub = state.subscriptions.find((x) => x.token === token);
      if (!sub) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('This subscription does not exist or has expired.');
        return;
      }
      sub.confirmed = true;
      save();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`Subscription confirmed!\nYou have successfully subscribed.\nYour subscription's id is:\n${sub.arn}`);
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
      expire();
      const form = new URLSearchParams(body);
      const action = form.get('Action');
      if (topicAction(action, form, res)) return;
      if (action !== 'Publish') {
        fail(res, 400, 'InvalidAction', `The local SNS outbox answers Publish, CreateTopic, Subscribe, Unsubscribe, GetSubscriptionAttributes and SetSubscriptionAttributes, not ${action ?? '(none)'}`);
        return;
      }
      const phone = form.get('PhoneNumber');
      const topic = form.get('TopicArn') ?? form.get('TargetArn');
      const message = form.get('Message');
      if ((!phone && !topic) || !message) {
        res.writeHead(400, { 'content-type': 'text/xml' }).end(xmlError('InvalidParameter', 'Publish needs Message and PhoneNumber or TopicArn'));
        return;
      }
      if (phone && !/^\+[1-9]\d{6,14}$/.test(phone)) {
        res.writeHead(400, { 'content-type': 'text/xml' }).end(xmlError('InvalidParameter', `Invalid parameter: PhoneNumber Reason: ${phone} is not E.164`));
        return;
      }
      const subject = form.get('Subject') ? { subject: form.get('Subject') ?? '' } : {};
      if (phone) {
        const entry = append({ channel: 'sms', to: phone, ...subject, message, attributes: attributesOf(form) });
        ok(res, 'Publish', `<MessageId>${entry.id}</MessageId>`);
        return;
      }
      if (!state.topics.includes(topic ?? '')) {
        fail(res, 404, 'NotFound', 'Topic does not exist');
        return;
      }
      const messageId = randomUUID();
      const attributes = attributesOf(form);
      for (const sub of state.subscriptions.filter((x) => x.topic === topic && x.confirmed && filterAdmits(x.filter_policy, attributes))) {
        append({ channel: sub.protocol, to: sub.endpoint, topic: topic ?? '', ...(sub.protocol === 'email' ? subject : {}), message, attributes, message_id: messageId });
      }
      ok(res, 'Publish', `<MessageId>${messageId}</MessageId>`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const ensureEmailTopic = (name: string, email: string): string => {
    const arn = `${LOCAL_ARN}${name}`;
    if (!state.topics.includes(arn)) state.topics.push(arn);
    if (!state.subscriptions.some((x) => x.topic === arn && x.endpoint === email)) {
      state.subscriptions.push({ arn: `${arn}:${randomUUID()}`, topic: arn, protocol: 'email', endpoint: email, confirmed: true, token: randomUUID(), subscribed_at: now().toISOString() });
    }
    save();
    return arn;
  };
  const setDown = (value: boolean) => {
    down = value;
  };
  return { server, endpoint, read, append, ensureEmailTopic, setDown };
};
