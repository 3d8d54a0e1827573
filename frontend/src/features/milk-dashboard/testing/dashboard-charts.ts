import type { Farm } from '@shared/entities/farm';
import { build } from '../../../testing/build';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen } from '../../../testing/selected-farm';
import { inFormAsked } from '../../../testing/range-columns';
import type { VatLastAll } from '../api/dashboard-last-all';

/**
 * The milk dashboard's chart tests' world: a Lite farm's two vats with two readings each and one
 * agitator stop, a week of storage history, and the dashboard opened on them.
 */

// 12:00 UTC is 01:00 on 11 March in Auckland (NZDT): the farm's today is 2026-03-11.
export const NOW = Date.parse('2026-03-10T12:00:00Z');

export const item = (n: number, pkg: Farm['package']): VatLastAll => ({
  device: { _id: `dev-${n}`, name: `thing-${n}`, vat_number: n, vat_size: 10_000, vat_auto: false, last_updated: null },
  package: pkg,
  range: { from: '2026-03-08T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', startDate: '2026-03-09', endDate: '2026-03-11', page_index: 1 },
  points: 2,
  detailData: [
    { published_at: '2026-03-10T10:00:00Z', milk_volume: 1000, temp1: 4 },
    { published_at: '2026-03-10T11:00:00Z', milk_volume: 1500, temp1: 3.5 },
  ],
  coolerData: [],
  phyStateData: [],
  batteryData: [],
  agitatorData: { listStop: [{ start: { published_at: '2026-03-10T10:10:00Z' }, end: { published_at: '2026-03-10T10:40:00Z' } }] },
  outageData: [],
});

export const history = (n: number) => ({
  device: item(n, 'Vat-Man Lite').device,
  from: '2026-03-03T12:00:00.000Z',
  to: '2026-03-10T12:00:00.000Z',
  storages: [
    {
      _id: `dev-${n}~storage~2026-03-09T10:00:00.000Z`,
      kind: 'storage',
      device_id: `dev-${n}`,
      activity: { start: { published_at: '2026-03-09T10:00:00.000Z', milk_volume: 900, temp1: 4, temp2: null, temp3: null }, end: null },
    },
  ],
  detailData: [{ published_at: '2026-03-09T10:00:00.000Z', milk_level: 300, milk_volume: 900, temp1: 4, temp2: 20 }],
  coolerData: [{ published_at: '2026-03-09T10:00:00.000Z', milk_in: 31, water_in: 13 }],
  phyStateData: [
    { start: '2026-03-09T09:00:00.000Z', end: '2026-03-09T10:00:00.000Z', phystate: 'milking' },
    { start: '2026-03-09T10:00:00.000Z', end: '2026-03-09T10:00:00.000Z', phystate: 'storage' },
  ],
});

export const openDashboard = (pkg: Farm['package'], lastAll?: FakeHandler, storageHistory: FakeHandler = () => []) =>
  openFarmerScreen(
    '/dts/dashboard',
    { FARMER_DASHBOARD_LAST: () => [], FARMER_DASHBOARD_LAST_ALL: inFormAsked(lastAll ?? (() => [item(1, pkg), item(2, pkg)])), FARMER_STORAGE_HISTORY: storageHistory },
    { farms: [build.farm({ _id: 'farm-1', package: pkg })], ready: 'Vatman' },
  );
