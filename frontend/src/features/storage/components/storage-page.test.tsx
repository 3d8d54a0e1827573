import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StorageOne } from '../api/storage';
import { reloadPage } from '../../../lib/page-reload';
import { build } from '../../../testing/build';
import { openFarmerScreen, readSelectedFarm, withSelectedFarm } from '../../../testing/selected-farm';
import { chartOn, expectMilkingMarkers, SEVEN_TEMPERATURES_VAT_SHOWN } from '../../../testing/charts';

vi.mock('../../../lib/page-reload', () => ({ reloadPage: vi.fn() }));
vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const START = '2026-03-09T10:00:00.000Z';
const ID = `dev-2~storage~${START}`;
const ALERT = '2026-03-09T20:00:00.000Z~dev-2~102';

const storage = (over: Partial<StorageOne> = {}): StorageOne => ({
  activity: {
    _id: ID,
    kind: 'storage',
    device_id: 'dev-2',
    activity: {
      start: { published_at: START, milk_volume: 500, temp1: 12, temp2: null, temp3: null },
      end: { published_at: '2026-03-10T08:00:00.000Z', milk_volume: 9000, temp1: 4, temp2: null, temp3: null },
    },
  },
  farm_id: 'farm-1',
  device: { _id: 'dev-2', name: 'thing-2', vat_number: 2, vat_size: 10_000, vat_auto: false, last_updated: null },
  detailData: [
    { published_at: START, milk_volume: 500, temp1: 12, agitator_status: 1 },
    { published_at: '2026-03-09T20:00:00.000Z', milk_volume: 6000, temp1: 7.2, agitator_status: 0 },
    { published_at: '2026-03-10T08:00:00.000Z', milk_volume: 9000, temp1: 4, agitator_status: 1 },
  ],
  coolerData: [{ published_at: '2026-03-09T20:00:00.000Z', milk_in: 33.4, water_in: 14.2 }],
  // A second milking into the stored milk from 18:00 to 19:00 UTC.
  phyStateData: [
    { start: START, end: '2026-03-09T18:00:00.000Z', phystate: 'storage' },
    { start: '2026-03-09T18:00:00.000Z', end: '2026-03-09T18:05:00.000Z', phystate: 'som' },
    { start: '2026-03-09T18:05:00.000Z', end: '2026-03-09T19:00:00.000Z', phystate: 'milking' },
    { start: '2026-03-09T19:00:00.000Z', end: '2026-03-10T08:00:00.000Z', phystate: 'storage' },
  ],
  agitatorData: { listStop: [{ start: { published_at: '2026-03-09T20:00:00.000Z' }, end: { published_at: '2026-03-09T21:00:00.000Z' } }] },
  alert: null,
  ...over,
});

const alert102: NonNullable<StorageOne['alert']> = {
  _id: ALERT,
  type: 102,
  status: 2,
  data: { published_at: '2026-03-09T20:00:00.000Z', temp1: 7.24, milk_volume: 6004, agitator_status: 0 },
  created_at: '2026-03-09T20:00:05.000Z',
  device: { _id: 'dev-2', name: 'thing-2', vat_number: 2 },
};

withSelectedFarm('farm-1');
beforeEach(() => vi.mocked(reloadPage).mockClear());

const open = async (path: string, answer: () => unknown, farms = [build.farm({ _id: 'farm-1' })]) =>
  (await openFarmerScreen(path, { FARMER_STORAGE_ONE: answer }, { farms })).api;

describe('/dts/storage/{activity_id}/alert/{alert_id} (farmer §2.7)', () => {
  it('asks FARMER_STORAGE_ONE for the activity and alert, and shows Vat {n}, the storage card with its legend, charts and the red alert box', async () => {
    const api = await open(`/dts/storage/${encodeURIComponent(ID)}/alert/${encodeURIComponent(ALERT)}`, () => storage({ alert: alert102 }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Vat 2' })).toBeInTheDocument();
    const call = api.callsOf('FARMER_STORAGE_ONE')[0];
    expect(call?.path).toBe('/api/farmer/activity');
    expect(call?.fields.get('activity_id')).toBe(ID);
    expect(call?.fields.get('alert_id')).toBe(ALERT);

    const box = screen.getByRole('alert');
    expect(box).toHaveTextContent('Temperature over 6°C');
    expect(box).toHaveTextContent('Milk over 6C');
    // Auckland is 13 h ahead in March: 20:00 UTC is 09:00 on the 10th.
    expect(box).toHaveTextContent('10 Mar 2026 09:00 NZDT · 7.2 °C · 6,000 L · Agitator Stopped');

    const card = screen.getByRole('region', { name: 'Milk storage data' });
    expect(within(card).getByText('Agitator Stopped')).toBeInTheDocument();
    const volume = await within(card).findByRole('img', { name: 'Vat 2 storage volume' }, { timeout: 5000 });
    expect(within(card).getByRole('img', { name: 'Vat 2 storage temperatures' })).toBeInTheDocument();
    const chart = await chartOn(volume);
    const bands = chart?.options.plugins?.bands?.shaded?.map((s) => s?.bands?.map((b) => [b?.from, b?.to]));
    expect(bands).toEqual([[[Date.parse('2026-03-09T20:00:00.000Z'), Date.parse('2026-03-09T21:00:00.000Z')]]]);
    expect(chart?.data.datasets[0]?.data).toEqual([
      { x: Date.parse(START), y: 500 },
      { x: Date.parse('2026-03-09T20:00:00.000Z'), y: 6000 },
      { x: Date.parse('2026-03-10T08:00:00.000Z'), y: 9000 },
    ]);
  });

  it('charts the eight §9 series (the lesser temperatures hidden until the legend shows them) and marks milking start and end on both charts (§4)', async () => {
    await open(`/dts/storage/${encodeURIComponent(ID)}`, () => storage());
    const card = await screen.findByRole('region', { name: 'Milk storage data' });
    const volume = await chartOn(await within(card).findByRole('img', { name: 'Vat 2 storage volume' }, { timeout: 5000 }));
    const temperatures = await chartOn(within(card).getByRole('img', { name: 'Vat 2 storage temperatures' }));
    const shown = (chart: typeof volume) =>
      chart.data.datasets.filter((d) => !(d as { reference?: boolean }).reference).map((d) => [d.label, (d as { hidden?: boolean }).hidden ?? false]);
    expect([...shown(volume), ...shown(temperatures)]).toEqual([
      ['Milk Volume', false],
      ...SEVEN_TEMPERATURES_VAT_SHOWN,
    ]);
    expect(temperatures.data.datasets.find((d) => d.label === 'Milk In')?.data).toEqual([{ x: Date.parse('2026-03-09T20:00:00.000Z'), y: 33.4 }]);
    // som counts as milking: one start at 18:00, one end at 19:00.
    expectMilkingMarkers([volume, temperatures], '2026-03-09T18:00:00.000Z', '2026-03-09T19:00:00.000Z');
  });

  it('without an alert: no red box, and alert_id is sent empty', async () => {
    const api = await open(`/dts/storage/${encodeURIComponent(ID)}`, () => storage());
    expect(await screen.findByRole('heading', { level: 1, name: 'Vat 2' })).toBeInTheDocument();
    expect(api.callsOf('FARMER_STORAGE_ONE')[0]?.fields.get('alert_id')).toBe('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('In storage from 09 Mar 2026 23:00 NZDT to 10 Mar 2026 21:00 NZDT')).toBeInTheDocument();
  });

  it('a storage of another of the user’s farms switches the selected farm to it and reloads', async () => {
    await open(`/dts/storage/${encodeURIComponent(ID)}`, () => storage({ farm_id: 'farm-2' }), [build.farm({ _id: 'farm-1' }), build.farm({ _id: 'farm-2', fonterra_id: 'OCD1' })]);
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(readSelectedFarm()).toBe('farm-2');
    expect(screen.queryByRole('heading', { level: 1, name: 'Vat 2' })).not.toBeInTheDocument();
  });

  it('the storage’s own farm does not reload', async () => {
    await open(`/dts/storage/${encodeURIComponent(ID)}`, () => storage());
    await screen.findByRole('heading', { level: 1, name: 'Vat 2' });
    expect(reloadPage).not.toHaveBeenCalled();
    expect(readSelectedFarm()).toBe('farm-1');
  });

  it('a storage the server refuses (403) says so on the page', async () => {
    await open(`/dts/storage/${encodeURIComponent(ID)}`, () => ({ status: 403, body: { message: 'Forbidden' } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This storage is not one of your farms’.');
  });
});
