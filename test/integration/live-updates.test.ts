import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICES } from '../../local/seed/demo-data';
import { LIVE_BAD_MESSAGE, LIVE_FORBIDDEN, liveServerMessageSchema, type LiveServerMessage } from '../../shared/live/protocol';
import { telemetryTopic } from '../../shared/telemetry/device-message';
import { liveSenderFromEnv } from '../../lambdas/adapters/apigateway/live-sender';
import { startTestStack } from '../support/local-stack';

/*
 * Live updates (issue 26) through the local stack: the WebSocket stand-in, the live function with
 * the real token check and farm check, the ingest's push through @connections with the real
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
const open = (token: string | undefined) =>
  new Promise<{ ws: WebSocket; messages: LiveServerMessage[]; next: (pred: (m: LiveServerMessage) => boolean, ms?: number) => Promise<LiveServerMessage> }>((resolve, reject) => {
    const url = new URL(stack.facts.live);
    if (token) url.searchParams.set('token', token);
    const ws = new WebSocket(url);
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

describe('live updates over the WebSocket (issue 26)', () => {
  it('refuses a connection without a valid token', async () => {
    await expect(open(undefined)).rejects.toMatchObject({ status: 401 });
    await expect(open('not-a-token')).rejects.toMatchObject({ status: 401 });
  });

  it("refuses a subscription to another person's farm and a message that is not one", async () => {
    const { ws, next } = await open(farmerToken);
    ws.send('hello');
    expect(await next((m) => m.type === 'error')).toEqual({ type: 'error', message: LIVE_BAD_MESSAGE });
    ws.send(JSON.stringify({ action: 'subscribe', farm: 'farm-wes' }));
    await next((m) => m.type === 'error' && m.message === LIVE_FORBIDDEN);
    ws.close();
  });

  it("pushes a reading published over MQTT to the farm's subscribers within 5 s, and not to another farm's", async () => {
    const vat = DEMO_DEVICES.find((d) => d.farm_id === 'farm-auto' && d.vat_number === 1);
    if (!vat) throw new Error('no farm-auto vat 1');
    const mine = await open(farmerToken);
    mine.ws.send(JSON.stringify({ action: 'subscribe', farm: 'farm-auto' }));
    await mine.next((m) => m.type === 'subscribed' && m.farm === 'farm-auto');
    const other = await open(await stack.signIn('westfarmer@vatman.local'));
    other.ws.send(JSON.stringify({ action: 'subscribe', farm: 'farm-wes' }));
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
    const { ws, messages } = await open(farmerToken);
    // A live connection's id is the stand-in's: a subscription's answer proves the post path works.
    ws.send(JSON.stringify({ action: 'subscribe', farm: 'farm-auto' }));
    await expect.poll(() => messages.length).toBe(1);
    ws.close();
  });
});
