import { describe, expect, it } from 'vitest';
import { knodeAssetSchema, MSG_KNODE_URL } from '../entities/farm';
import { devicePublishTopics, isMilkingState, isOnMains, knodeMessageSchema, parseDeviceTopic, parseUnitVatSender, telemetryMessageSchema, unitTelemetryTopic } from './device-message';

describe('device topics', () => {
  it("accepts a unit's dts/<unit>/<vat 1-4>/telemetry, the deprecated dts/<thing>/telemetry, and dts/<thing>/knode only", () => {
    expect(parseDeviceTopic('dts/unit-352656100000029/2/telemetry')).toEqual({ thing: 'unit-352656100000029/2', channel: 'telemetry' });
    expect(parseUnitVatSender('unit-352656100000029/2')).toEqual({ unit: 'unit-352656100000029', vat: 2 });
    expect(parseUnitVatSender('vm-31245-1')).toBeUndefined();
    expect(parseDeviceTopic('dts/vm-31245-1/telemetry')).toEqual({ thing: 'vm-31245-1', channel: 'telemetry' });
    expect(parseDeviceTopic('dts/kn-fon50412/knode')).toEqual({ thing: 'kn-fon50412', channel: 'knode' });
    for (const t of ['dts/vm-1/other', 'dts//telemetry', 'dts/a/b/telemetry', 'dts/a/5/telemetry', 'dts/a/0/telemetry', 'dts/a/1/knode', 'dts/a/cmd/reply', 'x/vm-1/telemetry', 'dts/+/telemetry', 'dts/+/1/telemetry']) {
      expect(parseDeviceTopic(t), t).toBeUndefined();
    }
  });

  it("lets a thing publish to its own topics only: its vats' readings, its per-vat readings, knode and replies", () => {
    expect(devicePublishTopics('unit-1')).toEqual([1, 2, 3, 4].map((v) => unitTelemetryTopic('unit-1', v)).concat(['dts/unit-1/telemetry', 'dts/unit-1/knode', 'dts/unit-1/cmd/reply']));
  });
});

describe('the vat message', () => {
  const ok = { published_at: '2026-11-22T05:31:00Z' };

  it('needs a zoned ISO date-time and defaults message_type to DATA', () => {
    expect(telemetryMessageSchema.parse(ok).message_type).toBe('DATA');
    for (const published_at of ['2026-11-22 05:31:00', '2026-11-22T05:31:00', 'yesterday', 1_700_000_000]) {
      expect(telemetryMessageSchema.safeParse({ published_at }).success).toBe(false);
    }
  });

  it('refuses unknown fields, wrong types and values no sensor produces', () => {
    const bad = [
      { ...ok, temperature: 4 },
      { ...ok, temp1: '4.2' },
      { ...ok, temp1: 121 },
      { ...ok, temp3: -41 },
      { ...ok, agitator_status: 2 },
      { ...ok, state_machine: 'dancing' },
      { ...ok, radar_distance: -1 },
      { ...ok, battery: { status: 'on' } },
      { ...ok, message_type: 'HELLO' },
    ];
    for (const m of bad) expect(telemetryMessageSchema.safeParse(m).success, JSON.stringify(m)).toBe(false);
  });

  it('takes a full device reading', () => {
    const full = {
      ...ok,
      message_type: 'AM',
      radar_distance: 1438,
      temp1: 4.2,
      temp2: 17.9,
      temp3: 18.1,
      temp4: 12,
      temp5: 15,
      temp6: null,
      pressure: 101,
      shaft_rpm: 104,
      agitator_status: 1,
      state_machine: 'storage',
      battery: { status: '0x0B' },
      cooler: { milk_in: 34.8, water_in: 14.1 },
      quality: { currentEstCFU: 4.1, pickupEstCFU: 4.4, alert: 0, agitator: { timeAgitatorStop: 0, timeInVat: 12 } },
      firmware_version: '41',
      system_version: '3.2.1',
      signal: { strength: 62, quality: 71, disconnects: 3 },
      seq: 1042,
    };
    expect(telemetryMessageSchema.safeParse(full).success).toBe(true);
  });
});

describe('battery register and milking states', () => {
  it('reads an odd register as on mains and an even one as mains off (operator §3)', () => {
    expect(isOnMains('0x0B')).toBe(true);
    expect(isOnMains('0B')).toBe(true);
    expect(isOnMains('0x0A')).toBe(false);
    expect(isOnMains('0x10')).toBe(false);
  });

  it('counts som, milking and eom as milking (farmer §4)', () => {
    expect(['som', 'milking', 'eom'].every((s) => isMilkingState(s as 'som'))).toBe(true);
    expect(['storage', 'empty', 'startup', null].some((s) => isMilkingState(s as 'storage'))).toBe(false);
  });
});

describe('the knode message', () => {
  it('takes an asset reading of a known type and refuses other types', () => {
    expect(knodeMessageSchema.safeParse({ published_at: '2026-11-22T05:31:00Z', type: 'Tank', asset_name: 'House tank', metric_value_1: 71, unit_1: '%' }).success).toBe(true);
    expect(knodeMessageSchema.safeParse({ published_at: '2026-11-22T05:31:00Z', type: 'Silo', asset_name: 'x' }).success).toBe(false);
    expect(knodeMessageSchema.safeParse({ published_at: '2026-11-22T05:31:00Z', type: 'Tank', asset_name: '' }).success).toBe(false);
  });
});

describe("a knode asset's url", () => {
  const reading = { published_at: '2026-11-22T05:31:00Z', type: 'Tank', asset_name: 'House tank', metric_value_1: 71 };
  it.each(['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'http://tank.example/house', 'ftp://tank.example/house', `https://tank.example/${'a'.repeat(2048)}`])(
    'refuses %s from the gateway with a clear reason',
    (url) => {
      const r = knodeMessageSchema.safeParse({ ...reading, url });
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([`url: ${MSG_KNODE_URL}`]);
    },
  );

  it('takes an https address', () => {
    expect(knodeMessageSchema.safeParse({ ...reading, url: 'https://app.vatman.example/knode/house-tank' }).success).toBe(true);
  });

  it('reads an asset stored before with a javascript: url as one without a link, keeping the asset', () => {
    const stored = knodeAssetSchema.parse({ type: 'Tank', asset_name: 'House tank', metric_value_1: 71, url: 'javascript:alert(1)' });
    expect(stored).toEqual({ type: 'Tank', asset_name: 'House tank', metric_value_1: 71 });
    expect(knodeAssetSchema.parse({ type: 'Tank', asset_name: 'House tank', url: 'https://tank.example/h' }).url).toBe('https://tank.example/h');
  });
});
