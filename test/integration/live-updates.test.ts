import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICES } from '../../local/seed/demo-data';
import { AdminAddUserToGroupCommand, AdminRemoveUserFromGroupCommand, AdminUserGlobalSignOutCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MSG_SIGN_IN_AGAIN } from '../../shared/api/actions/profile';
import { LIVE_AUTHORIZED_SECONDS, LIVE_BAD_MESSAGE, LIVE_FORBIDDEN, liveServerMessageSchema, type LiveServerMessage } from '../../shared/live/protocol';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoConnectionsRepository } from '../../lambdas/adapters/dynamodb/connections-repository';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { liveSenderFromEnv } from '../../lambdas/adapters/apigateway/live-sender';
import { startTestStack } from '../support/local-stack';

/*
 * Live updates through the local stack: the WebSocket stand-in, the live function with the real
 * token, Cognito and farm checks, the ingest's push through @connections with the real
 * @aws-sdk/client-apigatewaymanagementapi, and a reading published to the broker.
 */
let stack: Awaited<ReturnType<typeof startTestStack>>;
let broker: MqttClient;
let farmerToken: string;

beforeAll(async () => {
  stack = await startTestStack();
  broker = await mqtt.connectAsync(stack.facts.mqtt, { clientId: 'live-updates-test' });
  farmerToken = await stack.signIn('farmer@vatman.local');
}, 120_000);
afterAll(async () => {
  await broker?.endAsync();
  await stack?.stop();
});

/** A socket and every message it got, parsed with the protocol's schema. */
const open = () =>
  new Promise<{ ws: WebSocket; messages: LiveServerMessage[]; next: (pred: (m: LiveServerMessage) => boolean, ms?: number) => Promise<LiveServerMessage> }>((resolve, reject) => {
    const ws = new WebSocket(stack.facts.live);
    const messages: LiveServerMessage[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data: Buffer) => {
      messages.push(liveServerMessageSchema.parse(JSON.parse(data.toString('utf8'))));
      for (const w of waiters.splice(0)) w();
    });
    const next = (pred: (m: LiveServerMessage) => boolean, ms = 5000) =>
      new Promise<LiveServerMessage>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no matching message in ${ms} ms; got ${JSON.stringify(messages)}`)), ms);
        const check = () => {
          const found = messages.find(pred);
          if (found) {
            clearTimeout(timer);
            ok(found);
          } else waiters.push(check);
        };
        check();
      });
    ws.once('open', () => resolve({ ws, messages, next }));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`handshake ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });

const subscription = (farm: string, token: string) => JSON.stringify({ action: 'subscribe', farm, token });

describe('live updates over the WebSocket', () => {
  it('refuses a subscription without a valid token, and never wants one in the URL', async () => {
    const { ws, next } = await open();
    ws.send(subscription('farm-auto', 'not-a-token'));
    await next((m) => m.type === 'error' && m.message === MSG_SIGN_IN_AGAIN);
    ws.close();
  });

  it("refuses a subscription to another person's farm and a message that is not one", async () => {
    const { ws, next } = await open();
    ws.send('hello');
    expect(await next((m) => m.type === 'error')).toEqual({ type: 'error', message: LIVE_BAD_MESSAGE });
    ws.send(subscription('farm-wes', farmerToken));
    await next((m) => m.type === 'error' && m.message === LIVE_FORBIDDEN);
    ws.close();
  });

  it("pushes a reading published over MQTT to the farm's subscribers within 5 s, and not to another farm's", async () => {
    const vat = DEMO_DEVICES.find((d) => d.farm_id === 'farm-auto' && d.vat_number === 1);
    if (!vat) throw new Error('no farm-auto vat 1');
    const mine = await open();
    mine.ws.send(subscription('farm-auto', farmerToken));
    await mine.next((m) => m.type === 'subscribed' && m.farm === 'farm-auto');
    const other = await open();
    other.ws.send(subscription('farm-wes', await stack.signIn('westfarmer@vatman.local')));
    await other.next((m) => m.type === 'subscribed');

    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 2000).toISOString();
    const sent = Date.now();
    await broker.publishAsync(telemetryTopic(vat.name), JSON.stringify({ published_at: at, milk_level: 900, temp1: 3.7, agitator_status: 1, battery: { status: '0x0B' } }), { qos: 1 });
    const reading = await mine.next((m) => m.type === 'reading' && m.published_at === at);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(reading).toMatchObject({ type: 'reading', farm: 'farm-auto', device: vat._id, published_at: at, temp1: 3.7, agitator_status: 1 });
    expect(other.messages.filter((m) => m.type === 'reading')).toEqual([]);
    mine.ws.close();
    other.ws.close();
  });

  it('answers a post to a connection that is gone with GoneException, which the sender reads as gone', async () => {
    const sender = liveSenderFromEnv(process.env);
    expect(await sender.post('gone-connection=', { type: 'subscribed', farm: 'x' })).toBe(false);
    const { ws, messages } = await open();
    // A live connection's id is the stand-in's: a subscription's answer proves the post path works.
    ws.send(subscription('farm-auto', farmerToken));
    await expect.poll(() => messages.length).toBe(1);
    ws.close();
  });

  it("stops an Admin's pushes once Cognito no longer has them in the group, though their token still says Admin", async () => {
    const vat = DEMO_DEVICES.find((d) => d.farm_id === 'farm-auto' && d.vat_number === 1);
    if (!vat) throw new Error('no farm-auto vat 1');
    const adminToken = await stack.signIn('admin@vatman.local');
    const socket = await open();
    socket.ws.send(subscription('farm-auto', adminToken));
    await socket.next((m) => m.type === 'subscribed');
    const { cognito } = stack.facts;
    const idp = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const admin = { UserPoolId: cognito.userPoolId, Username: 'admin@vatman.local', GroupName: 'Admin' };
    await idp.send(new AdminRemoveUserFromGroupCommand(admin));
    try {
      // The browser's renewal, with the token it has.
      socket.ws.send(subscription('farm-auto', adminToken));
      await socket.next((m) => m.type === 'error' && m.message === LIVE_FORBIDDEN);
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString();
      await broker.publishAsync(telemetryTopic(vat.name), JSON.stringify({ published_at: at, milk_level: 905, temp1: 3.6, agitator_status: 1, battery: { status: '0x0B' } }), { qos: 1 });
      const watcher = await open();
      watcher.ws.send(subscription('farm-auto', farmerToken));
      await watcher.next((m) => m.type === 'subscribed');
      await new Promise((r) => setTimeout(r, 2_000));
      expect(socket.messages.filter((m) => m.type === 'reading' && m.published_at === at)).toEqual([]);
      watcher.ws.close();
    } finally {
      await idp.send(new AdminAddUserToGroupCommand(admin));
      socket.ws.close();
    }
  });

  it('lets a subscription that is not renewed lapse after a minute', async () => {
    const connections = dynamoConnectionsRepository(createDocumentClient(), process.env.CONNECTIONS_TABLE ?? '');
    const minuteAgo = new Date(Date.now() - (LIVE_AUTHORIZED_SECONDS + 1) * 1000);
    await connections.watch('lapsed=', 'u', 'farm-lapse', minuteAgo);
    await connections.watch('current=', 'u', 'farm-lapse', new Date());
    expect(await connections.listFarmConnections('farm-lapse')).toEqual(['current=']);
  });

  it('renews a subscription by moving its until alone, and starts afresh for a move or another person', async () => {
    const table = process.env.CONNECTIONS_TABLE ?? '';
    const doc = createDocumentClient();
    const connections = dynamoConnectionsRepository(doc, table);
    const item = async (pk: string, sk: string) => (await doc.send(new GetCommand({ TableName: table, Key: { pk, sk } }))).Item;
    const minuteAgo = new Date(Date.now() - (LIVE_AUTHORIZED_SECONDS + 1) * 1000);
    await connections.watch('renewed=', 'u', 'farm-renew', minuteAgo);
    const first = await item('CONN#renewed=', 'CONN');
    await connections.watch('renewed=', 'u', 'farm-renew', new Date());
    // The connection record is as the first subscription wrote it; only the farm item's until moved.
    expect(await item('CONN#renewed=', 'CONN')).toEqual(first);
    expect(await connections.listFarmConnections('farm-renew')).toEqual(['renewed=']);
    await connections.watch('renewed=', 'v', 'farm-renew-2', new Date());
    expect(await item('LIVE#farm-renew', 'renewed=')).toBeUndefined();
    expect(await item('CONN#renewed=', 'CONN')).toMatchObject({ user_id: 'v', farm: 'farm-renew-2' });
    expect(await connections.listFarmConnections('farm-renew-2')).toEqual(['renewed=']);
    await connections.removeConnection('renewed=');
    expect(await connections.listFarmConnections('farm-renew-2')).toEqual([]);
  });

  it('refuses the renewal of a session signed out everywhere', async () => {
    const token = await stack.signIn('westfarmer@vatman.local');
    const socket = await open();
    socket.ws.send(subscription('farm-wes', token));
    await socket.next((m) => m.type === 'subscribed');
    // Cognito revokes to the second: the sign-out comes in a later second than the token.
    await new Promise((r) => setTimeout(r, 1_100));
    const { cognito } = stack.facts;
    const idp = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: cognito.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await idp.send(new AdminUserGlobalSignOutCommand({ UserPoolId: cognito.userPoolId, Username: 'westfarmer@vatman.local' }));
    socket.ws.send(subscription('farm-wes', token));
    await socket.next((m) => m.type === 'error' && m.message === MSG_SIGN_IN_AGAIN);
    socket.ws.close();
  });
});
