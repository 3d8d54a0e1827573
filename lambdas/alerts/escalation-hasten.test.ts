import { describe, expect, it } from 'vitest';
import type { Delivery, StoredNotification } from '../ports/alerts';
import { hastenEscalations } from './escalation-hasten';

const RAISED = '2026-11-26T06:00:00.000Z';
const NOW = new Date('2026-11-26T06:10:00.000Z');
const at = (minutes: number) => new Date(Date.parse(RAISED) + minutes * 60_000).toISOString();
const step = (alert: string, escalation: 1 | 2, dueAt: string, planned = dueAt): Delivery =>
  ({ farm_id: 'f', alert_id: alert, user_id: 'u', channel: 'sms', state: 'pending', attempts: 0, due_at: dueAt, created_at: RAISED, escalation, escalation_due: planned }) as Delivery;

const run = async (waiting: Delivery[], minutes: number | null) => {
  const moves: [string, number, string, string][] = [];
  const moved = await hastenEscalations(
    {
      now: () => NOW,
      alerts: {
        listWaitingEscalationsOf: async () => waiting,
        get: async (_farm, id) => (id === 'gone' ? undefined : ({ _id: id, created_at: RAISED } as StoredNotification)),
        rescheduleEscalation: async (d, dueAt, shown) => {
          moves.push([d.alert_id, d.escalation ?? 0, dueAt, shown]);
          return true;
        },
      },
    },
    'u',
    minutes,
  );
  return { moved, moves };
};

describe('hastenEscalations (a shortened N for the steps already waiting)', () => {
  it('moves step 1 to N and step 2 to 2N, at once when that has passed', async () => {
    const { moved, moves } = await run([step('a', 1, at(60)), step('b', 2, at(120)), step('c', 1, at(30))], 5);
    expect(moved).toBe(3);
    expect(moves).toEqual([
      ['a', 1, NOW.toISOString(), at(5)],
      ['b', 2, NOW.toISOString(), at(10)],
      ['c', 1, NOW.toISOString(), at(5)],
    ]);
    expect((await run([step('a', 1, at(60)), step('b', 2, at(120))], 20)).moves).toEqual([
      ['a', 1, at(20), at(20)],
      ['b', 2, at(40), at(40)],
    ]);
  });

  it('leaves a lengthened or unchanged N, N turned off, a backoff after a failed send and a deleted alert to the notifier', async () => {
    expect((await run([step('a', 1, at(15))], 15)).moved).toBe(0);
    expect((await run([step('a', 1, at(15))], 60)).moved).toBe(0);
    expect((await run([step('a', 1, at(15))], null)).moved).toBe(0);
    expect((await run([step('a', 1, at(40), at(15))], 5)).moved).toBe(0);
    expect((await run([step('gone', 1, at(60))], 5)).moved).toBe(0);
  });
});
