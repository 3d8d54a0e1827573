import { describe, expect, it } from 'vitest';
import type { Farm } from '../../shared/entities/farm';
import { makeDairyGatewayClient } from '../adapters/dairy-company/gateway-client';
import type { StoredDocket } from '../ports/dairy';
import { createLogger } from '../lib/logger';
import { makeDairyExporter, type ExporterDeps } from './exporter';

/** The exporter's docket step against a gateway answering `answer` (the real client, its fetch faked). */
const runWithDockets = async (answer: unknown) => {
  const stored: StoredDocket[] = [];
  const lines: Record<string, unknown>[] = [];
  const farm = { _id: 'farm-1', fonterra_id: '31245', fonterra_api_status: true } as Farm;
  const fetchFn = (async () => new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
  const deps = {
    farms: { listFarms: async () => [farm], listDevicesOfFarm: async () => [] },
    readings: { listActivities: async () => [] },
    alerts: { list: async () => [], raise: async () => undefined, clearOpen: async () => undefined },
    dairy: { addEvent: async () => 'exists', listDue: async () => [], putDocket: async (d: StoredDocket) => void stored.push(d), listDockets: async () => [] },
    watchman: { getSettings: async () => undefined },
    gateway: makeDairyGatewayClient('https://gateway.example', async () => 'token', fetchFn),
    now: () => new Date('2026-11-22T00:00:00.000Z'),
    log: createLogger({}, 'debug', (line) => lines.push(JSON.parse(line) as Record<string, unknown>)),
  } as unknown as ExporterDeps;
  const result = await makeDairyExporter(deps).run();
  return { result, stored, warnings: lines.filter((l) => l.level === 'WARN') };
};

const good = { DocketID: '31245-1-2026-11-20T14:10:00Z', VatID: 1, PickupDateTime: '2026-11-20T14:10:00Z', Volume: 20_000, Temperature: 3.8 };

describe('dockets from the dairy-company gateway', () => {
  it('stores the good ones and logs and skips those with a time that is no ISO date-time or an unsafe or long id', async () => {
    const bad = [
      { ...good, DocketID: 'D-2', PickupDateTime: '2026-11-20T14:10:00Z#DOCKET#9' },
      { ...good, DocketID: 'D-3', PickupDateTime: 'yesterday' },
      { ...good, DocketID: 'D-4', PickupDateTime: '2026-11-20 14:10' },
      { ...good, DocketID: 'x'.repeat(65) },
      { ...good, DocketID: 'D#5<script>' },
    ];
    const { result, stored, warnings } = await runWithDockets([good, ...bad]);
    expect(stored).toEqual([{ ...good, farm_id: 'farm-1' }]);
    expect(result.dockets).toBe(1);
    const refused = warnings.filter((w) => w.message === 'dairy docket refused');
    expect(refused.map((w) => [w.farm, w.index])).toEqual([1, 2, 3, 4, 5].map((i) => ['farm-1', i]));
    expect(refused[0]?.reason).toMatch(/^PickupDateTime: PickupDateTime must be an ISO 8601 date-time/);
    expect(refused[3]?.reason).toMatch(/^DocketID: DocketID must be 1 to 64/);
  });

  it('refuses an answer of more than 5,000 dockets whole, storing none, and says so', async () => {
    const many = Array.from({ length: 5_001 }, (_, i) => ({ ...good, DocketID: `D-${i}` }));
    const { stored, warnings } = await runWithDockets(many);
    expect(stored).toEqual([]);
    expect(warnings.map((w) => w.message)).toEqual(['dairy dockets not fetched']);
    expect(JSON.stringify(warnings[0])).toContain('more than 5000 dockets');
  });
});
