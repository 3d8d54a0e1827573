import { describe, expect, it } from 'vitest';
import type { DeviceRow } from '@shared/api/actions/admin-device';
import { build } from '../../../testing/build';
import { farmLabel, levelBarOf, searchDevices, sortDevices, tempBarOf } from './fleet';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const row = (name: string, last: Partial<NonNullable<DeviceRow['last_updated']>> | null, over: Partial<DeviceRow> = {}): DeviceRow => {
  const { last_updated: _fresh, ...base } = build.deviceRow(name, over);
  return last ? { ...base, last_updated: { published_at: '2026-11-23T11:55:00.000Z', milk_level: 900, temp1: 4, temp2: 12, shaft_rpm: 400, ...last } } : base;
};

const healthy = row('vm-a', {});
const stale = row('vm-b', { published_at: '2026-11-22T11:00:00.000Z' });
const never = row('vm-c', null, { fonterra_id: null });
const noInlet = row('vm-d', { temp2: null });
const frozen = row('vm-e', { temp1: -7 });
const slowShaft = row('vm-f', { shaft_rpm: 60 });
const all = [healthy, stale, never, noInlet, frozen, slowShaft];

describe('device search (operator §9 keywords)', () => {
  it("'down' finds devices silent for over a day or never heard", () => {
    expect(searchDevices(all, 'down', NOW).map((d) => d.name)).toEqual(['vm-b', 'vm-c']);
  });
  it("'boards' finds devices with a missing sensor value", () => {
    expect(searchDevices(all, ' Boards ', NOW).map((d) => d.name)).toEqual(['vm-c', 'vm-d']);
  });
  it("'sensors' finds a temperature below −5 °C or a shaft under 100 rpm", () => {
    expect(searchDevices(all, 'sensors', NOW).map((d) => d.name)).toEqual(['vm-e', 'vm-f']);
  });
  it('searches plain text over name, supply number and farm name', () => {
    expect(searchDevices(all, 'vm-a', NOW).map((d) => d.name)).toEqual(['vm-a']);
    expect(searchDevices(all, 'totara', NOW)).toHaveLength(6);
    expect(searchDevices(all, '31245 / vat', NOW)).toHaveLength(5);
  });
});

describe('sorting and labels', () => {
  it('sorts by a column either way, rows without a value last', () => {
    expect(sortDevices([stale, never, healthy], 'lastSeen', 'descending').map((d) => d.name)).toEqual(['vm-a', 'vm-b', 'vm-c']);
    expect(sortDevices([stale, never, healthy], 'lastSeen', 'ascending').map((d) => d.name)).toEqual(['vm-b', 'vm-a', 'vm-c']);
  });
  it("shows 'N/A' for a device with no farm", () => {
    expect(farmLabel(never)).toBe('N/A');
    expect(farmLabel(healthy)).toBe('31245 / Vat 1');
  });
});

describe('bars (operator §9)', () => {
  it('scales the level to 2,000 mm with thresholds at 150 and 180 mm', () => {
    expect(levelBarOf(1000)).toEqual({ percent: 50, tone: 'ok' });
    expect(levelBarOf(160)?.tone).toBe('warn');
    expect(levelBarOf(100)?.tone).toBe('low');
    expect(levelBarOf(2600)?.percent).toBe(100);
    expect(levelBarOf(null)).toBeUndefined();
  });
  it('scales the temperature from −10 to 20 °C with thresholds at 0, 6 and 10 °C', () => {
    expect(tempBarOf(5)).toEqual({ percent: 50, tone: 'ok' });
    expect(tempBarOf(-2)?.tone).toBe('cold');
    expect(tempBarOf(8)?.tone).toBe('warn');
    expect(tempBarOf(12)?.tone).toBe('hot');
    expect(tempBarOf(-30)?.percent).toBe(0);
  });
});
