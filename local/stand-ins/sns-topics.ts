import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { escapeXml, fail, ok, subscribeAttributesOf } from './sns-query';

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

interface TopicsOptions {
  /** topics.json: topics and subscriptions, kept across restarts. */
  readonly file: string;
  readonly now: () => Date;
  /** Addresses whose email subscriptions count as confirmed at once. */
  readonly preconfirmed?: ((email: string) => boolean) | undefined;
  /** Puts AWS's confirmation email for a pending email subscription in the outbox. */
  readonly confirmationMail: (sub: { readonly topic: string; readonly endpoint: string; readonly token: string }) => void;
}

interface Topics extends TopicsOptions {
  state: TopicsFile;
  save(): void;
  findSub(arn: string): Subscription | undefined;
}

type TopicAction = (t: Topics, form: URLSearchParams, res: ServerResponse) => void;

const createTopic: TopicAction = (t, form, res) => {
  const name = form.get('Name') ?? '';
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(name)) return fail(res, 400, 'InvalidParameter', 'Invalid parameter: Topic Name');
  const arn = `${LOCAL_ARN}${name}`;
  if (!t.state.topics.includes(arn)) {
    t.state.topics.push(arn);
    t.save();
  }
  ok(res, 'CreateTopic', `<TopicArn>${arn}</TopicArn>`);
};

const subscribe: TopicAction = (t, form, res) => {
  const topic = form.get('TopicArn') ?? '';
  const protocol = form.get('Protocol') ?? '';
  const to = form.get('Endpoint') ?? '';
  const policy = subscribeAttributesOf(form).FilterPolicy;
  if (!t.state.topics.includes(topic)) return fail(res, 404, 'NotFound', 'Topic does not exist');
  if (protocol === 'email' ? !/^[^@\s]+@[^@\s]+$/.test(to) : protocol !== 'sms' || !/^\+[1-9]\d{6,14}$/.test(to)) {
    return fail(res, 400, 'InvalidParameter', `Invalid parameter: ${protocol === 'sms' ? 'SMS endpoint' : protocol === 'email' ? 'Email address' : 'Protocol'}`);
  }
  if (policy !== undefined && !validPolicy(policy)) {
    return fail(res, 400, 'InvalidParameter', 'Invalid parameter: FilterPolicy: the outbox takes attribute names with lists of exact string values');
  }
  // Subscribing an endpoint again answers its subscription, as SNS does; a pending email one gets its confirmation again.
  const existing = t.state.subscriptions.find((x) => x.topic === topic && x.protocol === protocol && x.endpoint === to);
  if (existing && (existing.filter_policy ?? '') !== (policy ?? '')) {
    return fail(res, 400, 'InvalidParameter', 'Invalid parameter: Attributes Reason: Subscription already exists with different attributes');
  }
  const confirmed = protocol === 'sms' || (t.preconfirmed?.(to) ?? false);
  const sub: Subscription = existing ?? {
    arn: `${topic}:${randomUUID()}`,
    topic,
    protocol: protocol === 'sms' ? 'sms' : 'email',
    endpoint: to,
    confirmed,
    token: randomUUID(),
    subscribed_at: t.now().toISOString(),
    ...(policy ? { filter_policy: policy } : {}),
  };
  if (!existing) {
    t.state.subscriptions.push(sub);
    t.save();
  }
  if (!sub.confirmed) t.confirmationMail(sub);
  ok(res, 'Subscribe', `<SubscriptionArn>${sub.arn}</SubscriptionArn>`);
};

const unsubscribe: TopicAction = (t, form, res) => {
  const arn = form.get('SubscriptionArn') ?? '';
  if (!t.findSub(arn)) return fail(res, 404, 'NotFound', 'Subscription does not exist');
  t.state.subscriptions = t.state.subscriptions.filter((x) => x.arn !== arn);
  t.save();
  ok(res, 'Unsubscribe', '');
};

const getSubscriptionAttributes: TopicAction = (t, form, res) => {
  const sub = t.findSub(form.get('SubscriptionArn') ?? '');
  if (!sub) return fail(res, 404, 'NotFound', 'Subscription does not exist');
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
};

const setSubscriptionAttributes: TopicAction = (t, form, res) => {
  const sub = t.findSub(form.get('SubscriptionArn') ?? '');
  const name = form.get('AttributeName');
  const value = form.get('AttributeValue') ?? '';
  if (!sub) return fail(res, 404, 'NotFound', 'Subscription does not exist');
  if (name !== 'FilterPolicy' || (value !== '' && !validPolicy(value))) {
    return fail(res, 400, 'InvalidParameter', 'Invalid parameter: the outbox sets FilterPolicy only, as attribute names with lists of exact string values');
  }
  if (value) sub.filter_policy = value;
  else delete sub.filter_policy;
  t.save();
  ok(res, 'SetSubscriptionAttributes', '');
};

const TOPIC_ACTIONS: Record<string, TopicAction> = {
  CreateTopic: createTopic,
  Subscribe: subscribe,
  Unsubscribe: unsubscribe,
  GetSubscriptionAttributes: getSubscriptionAttributes,
  SetSubscriptionAttributes: setSubscriptionAttributes,
};

/** The SNS stand-in's topics and subscriptions (kept in topics.json) and the query actions on them. */
export const loadSnsTopics = (options: TopicsOptions) => {
  const { file, now } = options;
  const state: TopicsFile = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as TopicsFile) : { topics: [], subscriptions: [] };
  // Files from before confirmation was modelled: their subscriptions were all treated as confirmed.
  for (const sub of state.subscriptions) {
    if (sub.confirmed === undefined) Object.assign(sub, { confirmed: true, token: randomUUID(), subscribed_at: now().toISOString() });
  }
  const t: Topics = {
    ...options,
    state,
    save: () => writeFileSync(file, `${JSON.stringify(t.state, null, 2)}\n`),
    findSub: (arn) => t.state.subscriptions.find((x) => x.arn === arn),
  };
  return {
    /** Answers a topic or subscription action; false for any other action. */
    answer(action: string | null, form: URLSearchParams, res: ServerResponse): boolean {
      const run = action === null ? undefined : TOPIC_ACTIONS[action];
      if (!run) return false;
      run(t, form, res);
      return true;
    },
    /** SNS forgets a subscription nobody confirmed in three days. */
    expire() {
      const cutoff = now().getTime() - UNCONFIRMED_EXPIRY_MS;
      const keep = t.state.subscriptions.filter((x) => x.confirmed || Date.parse(x.subscribed_at) > cutoff);
      if (keep.length !== t.state.subscriptions.length) {
        t.state.subscriptions = keep;
        t.save();
      }
    },
    /** Follows a confirmation link: the subscription it confirmed, or undefined for an unknown or expired token. */
    confirm(token: string | null): string | undefined {
      const sub = t.state.subscriptions.find((x) => x.token === token);
      if (!sub) return undefined;
      sub.confirmed = true;
      t.save();
      return sub.arn;
    },
    hasTopic: (arn: string) => t.state.topics.includes(arn),
    /** The confirmed subscriptions of a topic whose filter policy admits these attributes. */
    reached: (topic: string, attributes: Record<string, string>) => t.state.subscriptions.filter((x) => x.topic === topic && x.confirmed && filterAdmits(x.filter_policy, attributes)),
    /** A topic with one confirmed email subscription, as a deploy makes it (CDK's Topic and EmailSubscription); answers its ARN. */
    ensureEmailTopic(name: string, email: string): string {
      const arn = `${LOCAL_ARN}${name}`;
      if (!t.state.topics.includes(arn)) t.state.topics.push(arn);
      if (!t.state.subscriptions.some((x) => x.topic === arn && x.endpoint === email)) {
        t.state.subscriptions.push({ arn: `${arn}:${randomUUID()}`, topic: arn, protocol: 'email', endpoint: email, confirmed: true, token: randomUUID(), subscribed_at: now().toISOString() });
      }
      t.save();
      return arn;
    },
  };
};
