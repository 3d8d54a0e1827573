import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { testPushBrowser } from '../../../test/support/web-push-client';
import { makeWebPushSender } from './web-push-sender';

const vapid = webpush.generateVAPIDKeys();
const browser = testPushBrowser();
const message = { payload: '{"title":"Totara Downs Vat 1"}', ttlSeconds: 60, urgency: 'high' as const };

/** The sender as the push service answers it, with the requests it made. */
const senderAnswering = (status: number) => {
  const requests: { url: string; redirect: string }[] = [];
  const sender = makeWebPushSender(
    { publicKey: vapid.publicKey, subject: 'mailto:alerts@vatman.local', ackUrl: 'https://vatman.example/api/user', allowLocal: false, privateKey: async () => vapid.privateKey },
    async (url, init) => {
      requests.push({ url, redirect: init.redirect });
      return { status, text: async () => 'answer' };
    },
  );
  return { sender, requests };
};

describe('the Web Push sender', () => {
  it('posts to an allowed endpoint without following redirects; a redirect is a refusal, not a retry', async () => {
    const { sender, requests } = senderAnswering(307);
    const result = await sender.send({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: browser.keys }, message);
    expect(result).toMatchObject({ sent: false, gone: false, status: 307 });
    expect(requests).toEqual([{ url: 'https://fcm.googleapis.com/fcm/send/abc', redirect: 'manual' }]);
  });

  it('refuses (no retry) a 4xx other than gone, throws on 5xx and 429 (retried), answers gone on 410', async () => {
    const endpoint = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: browser.keys };
    expect(await senderAnswering(403).sender.send(endpoint, message)).toMatchObject({ sent: false, gone: false, status: 403 });
    expect(await senderAnswering(410).sender.send(endpoint, message)).toEqual({ sent: false, gone: true, status: 410 });
    await expect(senderAnswering(503).sender.send(endpoint, message)).rejects.toThrow('push service answered 503');
    await expect(senderAnswering(429).sender.send(endpoint, message)).rejects.toThrow('push service answered 429');
    expect(await senderAnswering(201).sender.send(endpoint, message)).toEqual({ sent: true, status: 201 });
  });

  it('never calls an endpoint of its own network, even one stored before the check', async () => {
    const { sender, requests } = senderAnswering(201);
    await expect(sender.send({ endpoint: 'https://169.254.169.254/latest/meta-data/', keys: browser.keys }, message)).rejects.toThrow('push endpoint not allowed');
    await expect(sender.send({ endpoint: 'https://fcm.googleapis.com:9001/x', keys: browser.keys }, message)).rejects.toThrow('push endpoint not allowed');
    expect(requests).toEqual([]);
  });
});
