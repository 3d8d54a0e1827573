import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDairyGateway, type DairyGateway } from '../../local/stand-ins/dairy-gateway';
import { DOC_FAKE_FARM, DOC_REAL_FARM, SCENARIOS } from '../../shared/dairy-company/scenarios';
import { freePort } from '../support/free-port';

const TOKEN = 'local-dairy-token';
let gateway: DairyGateway;

beforeAll(async () => {
  gateway = await startDairyGateway(await freePort(), { farms: [DOC_REAL_FARM], token: TOKEN, offVats: { [`${DOC_REAL_FARM}#2`]: 0.96 } });
});
afterAll(() => new Promise<void>((r) => gateway.server.close(() => r())));

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}${url}`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers } });

describe('the dairy company gateway stand-in', () => {
  it('answers each documented scenario E2E01-E2E10 as the documentation page shows', async () => {
    expect(SCENARIOS.map((s) => s.id)).toEqual(['E2E01', 'E2E02', 'E2E03', 'E2E04', 'E2E05', 'E2E06', 'E2E07', 'E2E08', 'E2E09', 'E2E10']);
    expect(SCENARIOS.some((s) => s.supplierId === DOC_FAKE_FARM)).toBe(true);
    for (const s of SCENARIOS) {
      const res = await post(s.url, s.request);
      expect({ id: s.id, status: res.status, body: await res.json() }).toEqual({ id: s.id, status: s.status, body: s.response });
    }
  });

  it('records an event once per idempotency key, replaying the first answer', async () => {
    const s = SCENARIOS.find((x) => x.id === 'E2E09');
    if (!s) throw new Error('no E2E09');
    const before = gateway.received().length;
    for (let i = 0; i < 3; i += 1) expect((await post(s.url, s.request, { 'idempotency-key': 'k-1' })).status).toBe(200);
    expect(gateway.received().length).toBe(before + 1);
  });

  it('refuses a request without the credentials and answers 503 through an outage', async () => {
    const s = SCENARIOS[0];
    if (!s) throw new Error('no scenario');
    expect((await fetch(`${gateway.url}${s.url}`, { method: 'POST', body: s.request })).status).toBe(401);
    gateway.outage(Date.now() + 60_000);
    expect((await post(s.url, s.request)).status).toBe(503);
    gateway.outage(0);
    expect((await post(s.url, s.request)).status).toBe(200);
  });

  it('serves dockets from the tanker with meter noise, one vat 4 % low', async () => {
    gateway.tanker({ supplierId: DOC_REAL_FARM, vatId: 1, at: '2026-11-20T14:10:00.000Z', litres: 20_000, temperature: 3.8 });
    gateway.tanker({ supplierId: DOC_REAL_FARM, vatId: 2, at: '2026-11-20T14:10:00.000Z', litres: 10_000, temperature: 4.2 });
    const res = await fetch(`${gateway.url}/v5/milkvattelemetry/${DOC_REAL_FARM}/dockets?from=2026-11-20&to=2026-11-21`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const dockets = (await res.json()) as { VatID: number; Volume: number; Temperature: number }[];
    const v1 = dockets.find((d) => d.VatID === 1);
    const v2 = dockets.find((d) => d.VatID === 2);
    expect(Math.abs((v1?.Volume ?? 0) - 20_000)).toBeLessThanOrEqual(50);
    expect(v1?.Volume).not.toBe(20_000);
    expect(Math.abs((v2?.Volume ?? 0) - 9_600)).toBeLessThanOrEqual(25);
    expect(Math.abs((v1?.Temperature ?? 0) - 3.8)).toBeLessThanOrEqual(0.1);
  });
});
