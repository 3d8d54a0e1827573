import { pushSubscriptionContracts as c } from '@shared/api/actions/push';
import type { PushSubscriptionJson } from '@shared/alerts/push';
import type { ApiClient } from '../../../lib/api-client';

export const pushSubscribe = (client: ApiClient, subscription: PushSubscriptionJson) => client.call(c.PUSH_SUBSCRIBE, { subscription });
export const pushUnsubscribe = (client: ApiClient, endpoint: string) => client.call(c.PUSH_UNSUBSCRIBE, { endpoint });

const base64urlToBytes = (s: string): Uint8Array<ArrayBuffer> => {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
};

/** Whether this browser can take pushes at all (an installed app or a browser with a service worker and the Push API). */
export const pushSupported = (): boolean => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** This browser's current subscription, if any (none without the app's service worker: `ready` would wait for ever). */
export const currentSubscription = async (): Promise<PushSubscription | null> => {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
};

/**
 * The app's service worker, registered here if need be: the dashboard registers it after its
 * first load, but a person may come to Notification Settings first. /sw.js is the build's
 * (frontend/build/service-worker.ts); registering it again is a no-op.
 */
const appServiceWorker = async (): Promise<ServiceWorkerRegistration> => {
  if (!(await navigator.serviceWorker.getRegistration('/'))) await navigator.serviceWorker.register('/sw.js');
  return navigator.serviceWorker.ready;
};

/**
 * Asks for permission (only here, from the person's click: never on first load) and subscribes
 * this browser with the VAPID public key; answers its JSON, or a reason it could not.
 */
export const subscribeThisBrowser = async (vapidPublicKey: string): Promise<PushSubscriptionJson | 'denied'> => {
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  const registration = await appServiceWorker();
  const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlToBytes(vapidPublicKey) });
  return sub.toJSON() as PushSubscriptionJson;
};
