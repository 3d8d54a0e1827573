import { describe, expect, it } from 'vitest';
import { sensorBoardsResult, unitCheckCommandSchema, unitStatusSchema } from './unit-check';

describe("Check Install's exchange with the unit", () => {
  const board = (vat: number, probe = true, radar = true) => ({ vat, probe, radar });

  it("says 'ok: n vats' when every vat's board answers, and names each fault otherwise", () => {
    expect(sensorBoardsResult([board(1), board(2)], [1, 2])).toBe('ok: 2 vats');
    expect(sensorBoardsResult([board(1)], [1])).toBe('ok: 1 vat');
    expect(sensorBoardsResult([board(1)], [1, 2])).toBe('fault: vat 2 sensor board missing');
    expect(sensorBoardsResult([board(1, false), board(2, true, false)], [1, 2])).toBe('fault: vat 1 temperature probe not answering; vat 2 radar not answering');
    expect(sensorBoardsResult([], [])).toBe('fault: no vats set up');
  });

  it('takes only a well-formed command and status', () => {
    expect(unitCheckCommandSchema.safeParse({ request_id: 'r', check: 'online' }).success).toBe(true);
    expect(unitCheckCommandSchema.safeParse({ request_id: 'r', check: 'reboot' }).success).toBe(false);
    const status = { network: 'LTE', signal: { strength: 67, quality: 81 }, disconnects: 0, power: { source: 'VIN', battery: { state: 'charged' } }, sensorBoards: [board(1)] };
    expect(unitStatusSchema.safeParse(status).success).toBe(true);
    expect(unitStatusSchema.safeParse({ ...status, power: { source: 'MAINS', battery: { state: 'charged' } } }).success).toBe(false);
    expect(unitStatusSchema.safeParse({ ...status, signal: { strength: 120, quality: 81 } }).success).toBe(false);
  });
});
