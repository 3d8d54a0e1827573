import { describe, expect, it } from 'vitest';
import { addPickupSchema, PICKUP_LIMITS } from './farmer-pickup';

const pickup = { type: 'ADD_PICKUP', farm_id: 'farm-1', vat: 1, datetime: '2026-11-26 04:00:00', volume: 12_000, temperature: 4 };
const firstMessage = (input: unknown) => {
  const r = addPickupSchema.safeParse(input);
  return r.success ? undefined : r.error.issues[0]?.message;
};

describe('pickup figures (farmer §2.14, §5)', () => {
  it('accepts figures within the limits', () => {
    expect(firstMessage(pickup)).toBeUndefined();
    expect(firstMessage({ ...pickup, volume: PICKUP_LIMITS.volume })).toBeUndefined();
  });

  // The limit's message is made when the check fails (no Intl at module evaluation); it reads as before.
  it.each([
    [{ ...pickup, volume: 100_001 }, 'Volume must be at most 100,000'],
    [{ ...pickup, temperature: 101 }, 'Temperature must be at most 100'],
    [{ ...pickup, vat: 100 }, 'Vat must be at most 99'],
    [{ ...pickup, volume: -1 }, 'Volume must be 0 or more'],
    [{ ...pickup, volume: 'lots' }, 'Volume must be a number'],
  ])('%o: %s', (input, message) => {
    expect(firstMessage(input)).toBe(message);
  });
});
