import { useEffect, useState } from 'react';
import { DEFAULT_PUSH_MINUTES } from '@shared/alerts/push';
import type { EscalationSettings } from '@shared/alerts/escalation';
import { useApiClient } from '../../../lib/api-client-provider';
import { useWebConfig } from '../../../lib/use-web-config';
import { currentSubscription, pushSubscribe, pushSupported, pushUnsubscribe, subscribeThisBrowser } from '../api/push';

const MINUTE_CHOICES = [2, 5, 10, 15, 30];

/**
 * Push notifications (Web Push, beyond the spec): this browser subscribed or not, and the minutes a
 * critical alert's push waits to be opened or acknowledged before the text goes (saved with Save).
 */
export function PushCard({ value, onChange }: { readonly value: EscalationSettings; readonly onChange: (v: EscalationSettings) => void }) {
  const client = useApiClient();
  const config = useWebConfig();
  const [state, setState] = useState<'unknown' | 'on' | 'off' | 'denied' | 'unsupported' | 'busy'>('unknown');
  useEffect(() => {
    if (!pushSupported() || !config?.vapidPublicKey) return void setState('unsupported');
    void currentSubscription()
      .then((s) => setState(s ? 'on' : Notification.permission === 'denied' ? 'denied' : 'off'))
      .catch(() => setState('off'));
  }, [config?.vapidPublicKey]);

  const turnOn = async () => {
    if (!config?.vapidPublicKey) return;
    setState('busy');
    try {
      const sub = await subscribeThisBrowser(config.vapidPublicKey);
      if (sub === 'denied') return setState('denied');
      await pushSubscribe(client, sub);
      setState('on');
    } catch {
      setState('off');
    }
  };
  const turnOff = async () => {
    setState('busy');
    const sub = await currentSubscription();
    if (sub) {
      await pushUnsubscribe(client, sub.endpoint).catch(() => undefined);
      await sub.unsubscribe();
    }
    setState('off');
  };
  const minutes = value.push_minutes ?? DEFAULT_PUSH_MINUTES;
  const choices = MINUTE_CHOICES.includes(minutes) ? MINUTE_CHOICES : [...MINUTE_CHOICES, minutes].sort((a, b) => a - b);

  return (
    <section className="settings__card" aria-label="Push notifications">
      <h2>Push notifications</h2>
      <p className="page__note">Alerts on this device, free and at once; a tap opens the vat. A critical alert is texted only when its push is not opened or acknowledged in time.</p>
      {state === 'unsupported' && <p>This browser cannot take push notifications.</p>}
      {state === 'denied' && <p>Notifications are blocked for Vat-Man in this browser's settings.</p>}
      {(state === 'off' || state === 'denied') && (
        <button type="button" onClick={() => void turnOn()}>
          Turn on push notifications
        </button>
      )}
      {state === 'on' && (
        <>
          <p>Push notifications are on for this browser.</p>
          <button type="button" onClick={() => void turnOff()}>
            Turn off push notifications
          </button>
        </>
      )}
      <label>
        Text a critical alert when its push is not opened within{' '}
        <select aria-label="Push minutes" value={minutes} onChange={(e) => onChange({ ...value, push_minutes: Number(e.target.value) })}>
          {choices.map((m) => (
            <option key={m} value={m}>
              {m} minutes
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
