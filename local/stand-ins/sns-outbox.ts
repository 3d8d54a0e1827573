import { createServer, type Server, type ServerResponse } from 'node:http';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';

/** One message the product sent: an SMS (to a phone number) or an email (to an address subscribed to a topic). */
export interface OutboxMessage {
  readonly id: string;
  readonly at: string;
  readonly channel: 'sms' | 'email';
  /** Phone number for SMS; the address for email. */
  readonly to: string;
  /** The topic an email was published to (one entry per subscribed address). */
  readonly topic?: string;
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
  readonly protocol: string;
  readonly endpoint: string;
}
interface TopicsFile {
  topics: string[];
  subscriptions: Subscription[];
}

/**
 * SNS stand-in: answers the SNS query protocol's Publish, CreateTopic, Subscribe and Unsubscribe,
 * so the product's notifier uses the real @aws-sdk/client-sns with only SNS_ENDPOINT changed.
 * A text is one entry; an email published to a topic is one entry per address subscribed to it
 * (SNS delivers to no one else). Subscriptions count as confirmed at once: there is no one to
 * click AWS's confirmation link. Messages are appended to a JSON-lines file, topics and
 * subscriptions kept beside it (both survive restarts); GET /messages reads the messages.
 */
export interface SnsOutbox {
  readonly server: Server;
  readonly endpoint: string;
  read(): OutboxMessage[];
  /** For mail that does not go through SNS in AWS either (Cognito's own emails). */
  append(entry: Omit<OutboxMessage, 'id' | 'at' | 'attributes'>): OutboxMessage;
  /** A topic with one email subscription, as a deploy makes it (CDK's Topic and EmailSubscription); answers its ARN. */
  ensureEmailTopic(name: string, email: string): string;
}

export const startSnsOutbox = async (port: number, file: string): Promise<SnsOutbox> => {
  mkdirSync(dirname(file), { recursive: true });
  const append = (entry: Omit<OutboxMessage, 'id' | 'at' | 'attributes'> & { attributes?: Record<string, string> }): OutboxMessage => {
    const full: OutboxMessage = { id: randomUUID(), at: new Date().toISOString(), attributes: {}, ...entry };
    appendFileSync(file, `${JSON.stringify(full)}\n`);
    return full;
  };
  const read = (): OutboxMessage[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as OutboxMessage)
      : [];
  const topicsFile = join(dirname(file), 'topics.json');
  const state: TopicsFile = existsSync(topicsFile) ? (JSON.parse(readFileSync(topicsFile, 'utf8')) as TopicsFile) : { topics: [], subscriptions: [] };
  const save = () => writeFileSync(topicsFile, `${JSON.stringify(state, null, 2)}\n`);
  const ok = (res: ServerResponse, action: string, result: string) =>
    res.writeHead(200, { 'content-type': 'text/xml' }).end(xml(action, result, randomUUID()));
  const fail = (res: ServerResponse, status: number, code: string, message: string) =>
    res.writeHead(status, { 'content-type': 'text/xml' }).end(xmlError(code, message));

  /** Answers CreateTopic, Subscribe and Unsubscribe; false for any other action. */
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
      const endpoint = form.get('Endpoint') ?? '';
      if (!state.topics.includes(topic)) {
        fail(res, 404, 'NotFound', 'Topic does not exist');
        return true;
      }
      if (protocol !== 'email' || !/^[^@\s]+@[^@\s]+$/.test(endpoint)) {
        fail(res, 400, 'InvalidParameter', 'Invalid parameter: Email address');
        return true;
      }
      // Subscribing an address again answers its subscription, as SNS does.
      const existing = state.subscriptions.find((x) => x.topic === topic && x.endpoint === endpoint);
      const sub = existing ?? { arn: `${topic}:${randomUUID()}`, topic, protocol, endpoint };
      if (!existing) {
        state.subscriptions.push(sub);
        save();
      }
      ok(res, 'Subscribe', `<SubscriptionArn>${sub.arn}</SubscriptionArn>`);
      return true;
    }
    if (action === 'Unsubscribe') {
      const arn = form.get('SubscriptionArn') ?? '';
      if (!state.subscriptions.some((x) => x.arn === arn)) {
        fail(res, 404, 'NotFound', 'Subscription does not exist');
        return true;
      }
      state.subscriptions = state.subscriptions.filter((x) => x.arn !== arn);
      save();
      ok(res, 'Unsubscribe', '');
      return true;
    }
    return false;
  };

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read()));
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const action = form.get('Action');
      if (topicAction(action, form, res)) return;
      if (action !== 'Publish') {
        fail(res, 400, 'InvalidAction', `The local SNS outbox answers Publish, CreateTopic, Subscribe and Unsubscribe, not ${action ?? '(none)'}`);
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
      for (const sub of state.subscriptions.filter((x) => x.topic === topic)) {
        append({ channel: 'email', to: sub.endpoint, topic: topic ?? '', ...subject, message, attributes: attributesOf(form) });
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
      state.subscriptions.push({ arn: `${arn}:${randomUUID()}`, topic: arn, protocol: 'email', endpoint: email });
    }
    save();
    return arn;
  };
  return { server, endpoint: `http://127.0.0.1:${port}`, read, append, ensureEmailTopic };
};
