/* global self, caches, clients */
/**
 * Vat-Man's service worker (the app opens in the shed with no signal). The build
 * (frontend/build/service-worker.ts) writes the build's file list and version in place of the
 * two constants below.
 *
 * - The app shell (index.html, every built script and style, the public files) is cached at
 *   install; a navigation goes to the network and falls back to the saved index.html.
 * - /config.json: the network first, the saved copy without a signal.
 * - The API's read answers that the dashboard opens with (READ_TYPES): the network first; each
 *   answer is saved per signed-in user (the token's subject) and request; without a signal the
 *   saved one is answered and the page is told when it was saved (a 'vatman-answer' message),
 *   so the dashboard says how old its numbers are. Nothing else of the API is saved: no sign-in
 *   answer (tokens) and no write.
 */
const PRECACHE = self.__VATMAN_PRECACHE__;
const VERSION = self.__VATMAN_VERSION__;
const SHELL = `vatman-shell-${VERSION}`;
const ANSWERS = 'vatman-answers-v1';
const READ_TYPES = new Set([
  'USER_ONE_GET_BY_TOKEN',
  'FARMER_DASHBOARD_LAST',
  'FARMER_DASHBOARD_LAST_ALL',
  'FARMER_STORAGE_HISTORY',
  'FARMER_NOTIFICATION_STATUS',
  'USER_SETTING_ALERT_GET',
]);
const SAVED_AT = 'x-vatman-saved-at';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('vatman-shell-') && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const tell = async (clientId, note) => {
  const client = clientId ? await clients.get(clientId) : undefined;
  if (client) client.postMessage({ type: 'vatman-answer', ...note });
};

/** The token's subject: answers are saved per person (no verification needed: it only names the shelf). */
const subjectOf = (authorization) => {
  const payload = /^Bearer [^.]+\.([^.]+)\./.exec(authorization ?? '')?.[1];
  if (!payload) return undefined;
  try {
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))).sub;
  } catch {
    return undefined;
  }
};

const keyOf = async (url, subject, body) => {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${subject}\n${url}\n${body}`));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return new Request(`${self.location.origin}/__vatman-answers/${hex}`);
};

const apiAnswer = async (event, request, body) => {
  const subject = subjectOf(request.headers.get('authorization'));
  const key = subject ? await keyOf(request.url, subject, body) : undefined;
  try {
    const response = await fetch(request);
    if (key && response.ok) {
      const copy = response.clone();
      const saved = new Response(await copy.blob(), { status: 200, headers: { 'content-type': copy.headers.get('content-type') ?? 'application/json', [SAVED_AT]: String(Date.now()) } });
      await (await caches.open(ANSWERS)).put(key, saved);
    }
    void tell(event.clientId, { source: 'network' });
    return response;
  } catch (err) {
    const saved = key ? await (await caches.open(ANSWERS)).match(key) : undefined;
    if (!saved) throw err;
    void tell(event.clientId, { source: 'cache', savedAt: Number(saved.headers.get(SAVED_AT)) });
    return saved;
  }
};

const networkFirst = async (request, cacheName, key = request) => {
  try {
    const response = await fetch(request);
    if (response.ok) await (await caches.open(cacheName)).put(key, response.clone());
    return response;
  } catch (err) {
    const saved = await caches.match(key);
    if (saved) return saved;
    throw err;
  }
};

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method === 'POST' && (request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
    event.respondWith(
      request
        .clone()
        .text()
        .then((body) => (READ_TYPES.has(new URLSearchParams(body).get('type') ?? '') ? apiAnswer(event, request, body) : fetch(request))),
    );
    return;
  }
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match('/index.html', { cacheName: SHELL })) ?? Response.error()));
    return;
  }
  if (url.pathname === '/config.json') {
    event.respondWith(networkFirst(request, SHELL, '/config.json'));
    return;
  }
  event.respondWith(caches.match(request, { cacheName: SHELL }).then((hit) => hit ?? fetch(request)));
});

/**
 * Web Push (decisions 090-092): a push carries the alert's title and words, the vat's page and a
 * signed acknowledgement (the worker has no session). 'Acknowledge' marks the alert read; a click
 * on the notification marks it read too (it was opened) and opens the vat's page, in a window of
 * the app if one is open. The alert id is the tag, so a second copy of one alert replaces the first.
 */
const ACKNOWLEDGE = 'acknowledge';

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : undefined;
  } catch {
    data = undefined;
  }
  if (!data || typeof data.title !== 'string') return;
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: data.body,
      tag: data.tag,
      icon: '/icons/vatman-192.png',
      requireInteraction: true,
      data: { url: data.url, ack: data.ack, ack_url: data.ack_url },
      actions: [{ action: ACKNOWLEDGE, title: 'Acknowledge' }],
    }),
  );
});

const acknowledge = (data) =>
  fetch(data.ack_url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ type: 'PUSH_ACKNOWLEDGE', token: data.ack }) }).catch(() => undefined);

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data || {};
  event.notification.close();
  const acked = data.ack && data.ack_url ? acknowledge(data) : Promise.resolve();
  if (event.action === ACKNOWLEDGE) {
    event.waitUntil(acked);
    return;
  }
  const url = new URL(data.url || '/dts/notification', self.location.origin).href;
  event.waitUntil(
    acked.then(() =>
      clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
        const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
        return open ? open.navigate(url).then((w) => (w || open).focus()) : clients.openWindow(url);
      }),
    ),
  );
});
