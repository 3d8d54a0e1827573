import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoAlertsRepository } from '../../lambdas/adapters/dynamodb/alerts-repository';
import { makeNotifier } from '../../lambdas/alerts/notifier';
import { createLogger } from '../../lambdas/lib/logger';
import type { AlertsRepository } from '../../lambdas/ports/alerts';
import { DEMO_FARMS } from '../../local/seed/demo-data';
import { defaultPreferences } from '../../shared/alerts/preferences';
import type { Notification } from '../../shared/alerts/types';
import type { User } from '../../shared/entities/user';
import { localMonth } from '../../shared/time/local-day';
import { startDynaliteTables, type DynaliteTables } from '../support/dynalite';

/*
 * The farm's monthly text allowance against a crash (dynalite, the real Alerts repository): a
 * notifier that dies after taking a text and before recording its delivery, then the sweep's retry
 * planning the same alert again.
 */
let store: DynaliteTables;

beforeAll(async () => {
  store = await startDynaliteTables('sms');
});
afterAll(async () => store?.dynamo.stop());

const farm = { ...(DEMO_FARMS[1] as (typeof DEMO_FARMS)[number]), _id: 'farm-sms' };
const person: User = {
  _id: 'u-sms',
  email: 'sms@vatman.local',
  firstName: 'Sam',
  lastName: 'Texter',
  phone: '+64211230000',
  role: 'farmer',
  is_herd_enabled: 0,
  subscribed: false,
  email_verify: 2,
  phone_verify: 2,
  created_at: '2026-01-01T00:00:00.000Z',
};

describe('the text allowance', () => {
  it('a crash between taking a text and recording its delivery takes the same text again on the retry, not a second one', async () => {
    const alerts = dynamoAlertsRepository(store.doc(), store.tables.ALERTS_TABLE as string);
    const now = new Date();
    const n: Notification = {
      _id: `${now.toISOString()}~dev-sms~102`,
      farm_id: farm._id,
      type: 102,
      status: 1,
      data: { published_at: now.toISOString(), temp1: 8.4, milk_volume: 4000, agitator_status: 1 },
      device: { _id: 'dev-sms', name: 'vm-sms', vat_number: 1 },
      created_at: now.toISOString(),
    };
    expect(await alerts.raise(n, false)).toBe('created');
    let crashes = 1;
    // The process dies right after the text was taken: the delivery's record is never written.
    const crashing: AlertsRepository = {
      ...alerts,
      addDelivery: async (d) => {
        if (d.channel === 'sms' && crashes > 0) {
          crashes -= 1;
          throw new Error('the container died');
        }
        return alerts.addDelivery(d);
      },
    };
    const notifier = makeNotifier({
      farms: { getFarm: async () => farm, getUser: async () => person },
      settings: { listUserIdsOfFarm: async () => [person._id], getPreferencesOf: async (ids) => new Map(ids.map((id) => [id, defaultPreferences()])) },
      alerts: crashing,
      sender: { sms: async () => ({ sent: true }), email: async () => ({ sent: true }) },
      now: () => now,
      log: createLogger({}, 'error', () => undefined),
    });
    const stored = await alerts.get(farm._id, n._id);
    if (!stored) throw new Error('alert not stored');
    await expect(notifier.deliver(stored)).rejects.toThrow('the container died');
    // The sweep plans the alert again (its delivery is still pending) and sends it.
    await notifier.retryPending();
    const deliveries = await alerts.listDeliveries(farm._id, n._id);
    expect(deliveries.filter((d) => d.channel === 'sms').map((d) => d.state)).toEqual(['sent']);
    expect(await alerts.smsCount(farm._id, localMonth(now, farm.timezone))).toBe(1);
  });
});
