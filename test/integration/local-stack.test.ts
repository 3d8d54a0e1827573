import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CreateTopicCommand, GetSubscriptionAttributesCommand, PublishCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { startMqttBroker, topicMatches } from '../../local/stand-ins/mqtt-broker';
import type { OutboxMessage } from '../../local/stand-ins/sns-outbox';
import { CONFIRMATION_SUBJECT } from '../../local/stand-ins/sns-topics';
import { ensureTables, expirySweeper, startDynamo, sweepExpired } from '../../local/stand-ins/dynamodb';
import { startLocalStack } from '../../local/start';
import { freePort, useFreePorts } from '../support/free-port';
import { fakeDist, startTestStack } from '../support/local-stack';

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vatman-restart-'));
  const distDir = fakeDist();
  let stop: (() => Promise<void>) | undefined;
  afterAll(async () => stop?.());

  it('keeps every change across a restart, and the second start is idempotent', async () => {
    const first = await startTestStack(dataDir, distDir);
    stop = first.stop;
    const token = await first.signIn('farmer@vatman.local');
    const me = (await first.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, token)).body as { user: { _id: string } };
    // A change made while running, straight into the table, must survive the restart.
    const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1' }));
    await doc.send(new PutCommand({ TableName: process.env.FARMS_TABLE, Item: { pk: 'TEST#restart', sk: 'MARK', value: 42 } }));
    const clientId = first.facts.cognito.clientId;
    await first.stop();
    stop = undefined;

    const second = await startTestStack(dataDir, distDir);
    stop = second.stop;
    expect(second.facts.cognito.clientId).toBe(clientId);
    const again = await second.signIn('farmer@vatman.local');
    const me2 = (await second.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, again)).body as { user: { _id: string }; listFarm: unknown[] };
    expect(me2.user._id).toBe(me.user._id);
    expect(me2.listFarm).toHaveLength(3);
    const doc2 = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1' }));
    const mark = await doc2.send(new GetCommand({ TableName: process.env.FARMS_TABLE, Key: { pk: 'TEST#restart', sk: 'MARK' } }));
    expect(mark.Item?.value).toBe(42);
  });

  it('writes .data/local.json with every field', async () => {
    const { readFileSync } = await import('node:fs');
    const facts = JSON.parse(readFileSync(join(dataDir, 'local.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(facts)).toEqual(expect.arrayContaining(['web', 'api', 'mqtt', 'cognito', 'accounts', 'farms']));
    expect(facts.cognito).toEqual({ endpoint: expect.any(String), userPoolId: expect.stringMatching(/^us-east-1_/), clientId: expect.any(String), region: 'us-east-1' });
    const accounts = facts.accounts as { role: string; email: string; password: string }[];
    expect(accounts.map((a) => a.role)).toEqual(expect.arrayContaining(['Farmer', 'Admin', 'Installer', 'Milk Quality', 'Westlands']));
    const farms = facts.farms as { fonterra_id: string; package: string; vats: { vat_number: number; device_id: string; topic: string }[] }[];
    expect(new Set(farms.map((f) => f.package))).toEqual(new Set(['Vat-Man Lite', 'Vat-Man Pro', 'Vat-Man Auto']));
    expect(new Set(farms.map((f) => f.vats.length))).toEqual(new Set([1, 2, 3, 4]));
    expect(farms.some((f) => /^\d{5}$|^FON/.test(f.fonterra_id))).toBe(true);
    expect(farms.some((f) => !/^\d{5}$|^FON/.test(f.fonterra_id))).toBe(true);
    // Each demo farm has a unit: its vats' topics are the unit's.
    expect(farms[0]?.vats[0]?.topic).toMatch(/^dts\/unit-\d{15}\/1\/telemetry$/);
  });

  it("serves the web build with the distribution's SPA fallback and the runtime config.json", async () => {
    const web = `http://127.0.0.1:${process.env.WEB_PORT}`;
    const deep = await fetch(`${web}/dts/milking/abc`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root">');
    expect(await (await fetch(`${web}/assets/app.js`)).text()).toBe('console.log(1)');
    const config = (await (await fetch(`${web}/config.json`)).json()) as Record<string, string>;
    // The API on the site's own origin (`/api/*`, the web distribution's API behaviour): no CORS preflight.
    expect(config).toMatchObject({ apiUrl: `http://localhost:${process.env.WEB_PORT}`, region: 'us-east-1', userPoolId: expect.any(String), userPoolClientId: expect.any(String) });
    const user = await fetch(`${web}/api/user`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'type=NOPE' });
    expect(user.headers.get('content-type')).toMatch(/json/);
    expect(user.status).toBe(401);
    // A path out of the build (an encoded '../') gets S3's 403 for a key it lacks, never the file; so does a file the build lacks.
    const outside = await fetch(`${web}/assets%2f..%2f..%2f..%2fpackage.json`);
    expect([outside.status, await outside.text()]).toEqual([403, expect.stringContaining('<Code>AccessDenied</Code>')]);
    expect((await fetch(`${web}/assets/gone-Zz9.js`)).status).toBe(403);
  });

  it('keeps every SNS message in the outbox, sent with the real SDK', async () => {
    const sns = new SNSClient({ endpoint: process.env.SNS_ENDPOINT, region: 'us-east-1' });
    const sent = await sns.send(new PublishCommand({ PhoneNumber: '+64211234501', Message: 'Vat 1 at Totara Downs is over 10°C' }));
    expect(sent.MessageId).toBeTruthy();
    // A topic with an email and an SMS subscription, each filtered on the `channel` attribute.
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'vatman-local-alert-email-outbox-test' }));
    const filter = (channel: string) => ({ FilterPolicy: JSON.stringify({ channel: [channel] }) });
    const { SubscriptionArn } = await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'email', Endpoint: 'outbox@example.nz', ReturnSubscriptionArn: true, Attributes: filter('email') }));
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sms', Endpoint: '+64211234599', ReturnSubscriptionArn: true, Attributes: filter('sms') }));
    const channel = (value: string) => ({ channel: { DataType: 'String', StringValue: value } });
    const read = async () => (await (await fetch(`${process.env.SNS_ENDPOINT}/messages`)).json()) as OutboxMessage[];
    // The email subscription waits for its confirmation link: nothing is emailed before it is followed.
    expect((await sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn }))).Attributes?.PendingConfirmation).toBe('true');
    await sns.send(new PublishCommand({ TopicArn, Subject: 'Vat-Man alert', Message: 'before confirming', MessageAttributes: channel('email') }));
    const confirmation = (await read()).find((m) => m.to === 'outbox@example.nz' && m.subject === CONFIRMATION_SUBJECT);
    const link = /(http:\/\/\S+\/confirm\?Token=\S+)/.exec(confirmation?.message ?? '')?.[1];
    expect((await fetch(link ?? 'http://127.0.0.1:1/')).status).toBe(200);
    expect((await sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn }))).Attributes?.PendingConfirmation).toBe('false');
    // One publish, one channel.
    await sns.send(new PublishCommand({ TopicArn, Subject: 'Vat-Man alert', Message: 'email body', MessageAttributes: channel('email') }));
    await sns.send(new PublishCommand({ TopicArn, Message: 'text body', MessageAttributes: channel('sms') }));
    await expect(sns.send(new PublishCommand({ PhoneNumber: '021 not e164', Message: 'x' }))).rejects.toThrow(/E\.164/);
    const outbox = await read();
    expect(outbox).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: 'sms', to: '+64211234501', message: 'Vat 1 at Totara Downs is over 10°C', id: sent.MessageId }),
        expect.objectContaining({ channel: 'email', to: 'outbox@example.nz', topic: TopicArn, subject: 'Vat-Man alert', message: 'email body' }),
        expect.objectContaining({ channel: 'sms', to: '+64211234599', topic: TopicArn, message: 'text body' }),
      ]),
    );
    const onTopic = outbox.filter((m) => m.topic === TopicArn && m.subject !== CONFIRMATION_SUBJECT).map((m) => `${m.channel}:${m.message}`);
    expect(onTopic).toEqual(['email:email body', 'sms:text body']);
  });

  it('refuses a port already in use with a clear message', async () => {
    const port = await freePort();
    const blocker = createServer().listen(port, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    await useFreePorts();
    process.env.API_PORT = String(port);
    await expect(startLocalStack({ dataDir: mkdtempSync(join(tmpdir(), 'vatman-busy-')), distDir })).rejects.toThrow(
      `Port ${port} (api) is already in use. Stop whatever is using it, or choose another port: API_PORT=<port> npm start`,
    );
    blocker.close();
  });
});

describe('IoT Core stand-in', () => {
  it('matches topic filters like MQTT', () => {
    expect(topicMatches('dts/+/telemetry', 'dts/vm-1/telemetry')).toBe(true);
    expect(topicMatches('dts/+/telemetry', 'dts/vm-1/other')).toBe(false);
    expect(topicMatches('dts/+/telemetry', 'dts/vm-1/telemetry/x')).toBe(false);
    expect(topicMatches('dts/#', 'dts/vm-1/telemetry/x')).toBe(true);
  });

  it('hands each published message to its rule, retries a failing target, and reports after the retries', async () => {
    const seen: string[] = [];
    let failures = 0;
    const errors: string[] = [];
    const broker = await startMqttBroker(
      await freePort(),
      [
        { name: 'telemetry', topicFilter: 'dts/+/telemetry', target: async ({ topic, payload }) => void seen.push(`${topic} ${payload.toString()}`) },
        {
          name: 'flaky',
          topicFilter: 'dts/+/flaky',
          target: async () => {
            failures += 1;
            throw new Error('boom');
          },
        },
      ],
      (rule) => errors.push(rule),
    );
    const client = await mqtt.connectAsync(broker.url, { clientId: 'vm-test-1' });
    await client.publishAsync('dts/vm-test-1/telemetry', '{"a":1}', { qos: 1 });
    await client.publishAsync('dts/vm-test-1/ignored', 'x', { qos: 1 });
    await client.publishAsync('dts/vm-test-1/flaky', 'x', { qos: 1 });
    await new Promise((r) => setTimeout(r, 200));
    await client.endAsync();
    await broker.close();
    expect(seen).toEqual(['dts/vm-test-1/telemetry {"a":1}']);
    expect(failures).toBe(3);
    expect(errors).toEqual(['flaky']);
  });
});

describe('DynamoDB stand-in', () => {
  it('creates the tables once and sweeps items whose TTL has passed, as AWS would', async () => {
    const { stop, endpoint } = await startDynamo(await freePort());
    const client = new DynamoDBClient({ endpoint, region: 'us-east-1' });
    const names = await ensureTables(client, 't');
    expect(await ensureTables(client, 't')).toEqual(names);
    const doc = DynamoDBDocumentClient.from(client);
    const now = 1_800_000_000;
    await doc.send(new PutCommand({ TableName: names.READINGS_TABLE, Item: { pk: 'a', sk: 'old', expires_at: now - 1 } }));
    await doc.send(new PutCommand({ TableName: names.READINGS_TABLE, Item: { pk: 'a', sk: 'new', expires_at: now + 60 } }));
    expect(await sweepExpired(client, 't', now)).toBe(1);
    expect((await doc.send(new GetCommand({ TableName: names.READINGS_TABLE, Key: { pk: 'a', sk: 'new' } }))).Item).toBeDefined();
    expect((await doc.send(new GetCommand({ TableName: names.READINGS_TABLE, Key: { pk: 'a', sk: 'old' } }))).Item).toBeUndefined();

    // The scheduled sweep reads a bounded page per table per tick and carries on where it stopped.
    for (let n = 0; n < 7; n += 1) {
      await doc.send(new PutCommand({ TableName: names.READINGS_TABLE, Item: { pk: `b${n}`, sk: 'x', expires_at: now - 1 } }));
    }
    const sweep = expirySweeper(client, 't', 3);
    const ticks: { deleted: number; wrapped: boolean }[] = [];
    do ticks.push(await sweep(now));
    while (!ticks.at(-1)?.wrapped);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.reduce((sum, t) => sum + t.deleted, 0)).toBe(7);
    expect(Math.max(...ticks.map((t) => t.deleted))).toBeLessThanOrEqual(3);
    expect((await doc.send(new GetCommand({ TableName: names.READINGS_TABLE, Key: { pk: 'a', sk: 'new' } }))).Item).toBeDefined();
    await stop();
  });
});
