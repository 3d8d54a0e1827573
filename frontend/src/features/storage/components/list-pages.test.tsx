import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AgitatorList, CollectionList } from '../api/storage';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withSelectedFarm } from '../../../testing/selected-farm';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm('farm-1');

const point = (published_at: string, milk_volume: number | null, temp1: number | null) => ({ published_at, milk_volume, temp1, temp2: null, temp3: null });
const range = (page: number) => ({ from: '2026-02-08T11:00:00.000Z', to: '2026-03-10T12:00:00.000Z', startDate: '2026-02-09', endDate: '2026-03-11', page_index: page });
const device = (n: number) => ({ _id: `dev-${n}`, name: `thing-${n}`, vat_number: n, vat_size: 10_000, vat_auto: false, last_updated: null });
const vatLast = (n: number) => ({ device: device(n), last: null, lastStorage: null, lastCollection: null, lastMilking: null, lastCIP: null });

const open = (path: string, handlers: Record<string, FakeHandler>, heading: string) =>
  openFarmerScreen(path, { FARMER_DASHBOARD_LAST: () => [vatLast(1), vatLast(2)], ...handlers }, { ready: heading });

const facts = (row: HTMLElement) => Object.fromEntries(within(row).getAllByRole('term').map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));

describe('/dts/collection (farmer §2.6): the detected collections', () => {
  const collections = (page: number): CollectionList => ({
    range: range(page),
    list:
      page === 1
        ? [
            {
              _id: 'dev-1~collection~2026-03-09T20:00:00.000Z',
              kind: 'collection',
              device_id: 'dev-1',
              activity: { start: point('2026-03-09T20:00:00.000Z', 9000, 3.84), end: point('2026-03-09T20:25:00.000Z', 0, 3.9) },
              vat_number: 1,
              volume_collected: 9004,
              duration_min: 25,
              tanker: { volume: 9380, source: 'docket', at: '2026-03-09T20:05:00Z' },
              difference_l: -376,
              difference_percent: -4,
            },
          ]
        : [],
  });

  it('lists each vat’s collections in the farm’s local time, and says so for a vat with none', async () => {
    const { api } = await open('/dts/collection', { FARMER_COLLECTION_LIST: (f) => collections(Number(f.get('page_index'))), FARMER_PICKUP_LIST: (f) => ({ range: range(Number(f.get('page_index'))), list: [] }) }, 'Collections');
    const vat1 = await screen.findByRole('region', { name: 'Vat 1' });
    expect(facts(within(vat1).getByRole('listitem'))).toEqual({ Started: '10 Mar 2026 09:00 NZDT', Duration: '25 min', 'Volume collected': '9,000 L', Temperature: '3.8 °C', Tanker: '9,380 L (docket)', 'Vat against tanker': '\u2212376 L (\u22124.0 %)' });
    expect(within(screen.getByRole('region', { name: 'Vat 2' })).getByText('No collections in these days.')).toBeInTheDocument();
    expect(screen.getByText('09 Feb 2026 to 11 Mar 2026')).toBeInTheDocument();
    expect(api.callsOf('FARMER_COLLECTION_LIST')[0]?.fields.get('farm')).toBe('farm-1');
    expect(api.callsOf('FARMER_COLLECTION_LIST')[0]?.fields.get('page_index')).toBe('1');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('Previous asks for the 30 days before', async () => {
    const { api, user } = await open('/dts/collection', { FARMER_COLLECTION_LIST: (f) => collections(Number(f.get('page_index'))), FARMER_PICKUP_LIST: (f) => ({ range: range(Number(f.get('page_index'))), list: [] }) }, 'Collections');
    await screen.findByText('25 min');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await within(screen.getByRole('region', { name: 'Vat 1' })).findByText('No collections in these days.')).toBeInTheDocument();
    expect(api.callsOf('FARMER_COLLECTION_LIST')[1]?.fields.get('page_index')).toBe('2');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'false');
  });

  describe('the pickups entered on Submit Pickup, beside the detected collections', () => {
    const pickup = (datetime: string, vat: number, mine: boolean, volume = 8450) => ({ vat, device_id: `dev-${vat}`, datetime, volume, temperature: 3.84, submitted_at: datetime, mine });
    const openWithPickups = (list: ReturnType<typeof pickup>[], more: Record<string, FakeHandler> = {}) =>
      open(
        '/dts/collection',
        {
          FARMER_COLLECTION_LIST: (f) => collections(Number(f.get('page_index'))),
          FARMER_PICKUP_LIST: (f) => ({ range: range(Number(f.get('page_index'))), list: Number(f.get('page_index')) === 1 ? list : [] }),
          DELETE_PICKUP: () => 'success',
          ...more,
        },
        'Collections',
      );

    it("lists each vat's submitted pickups among its collections, newest first, marked as entered by hand and by whom", async () => {
      const { api } = await openWithPickups([pickup('2026-03-10T01:00:00.000Z', 1, true), pickup('2026-03-09T01:00:00.000Z', 1, false, 7000), pickup('2026-03-09T05:00:00.000Z', 2, true)]);
      const vat1 = await screen.findByRole('region', { name: 'Vat 1' });
      await within(vat1).findByText('You');
      expect(within(vat1).getAllByRole('listitem').map(facts)).toEqual([
        { 'Submitted pickup': '10 Mar 2026 14:00 NZDT', Volume: '8,450 L', Temperature: '3.8 °C', 'Entered by': 'You' },
        { Started: '10 Mar 2026 09:00 NZDT', Duration: '25 min', 'Volume collected': '9,000 L', Temperature: '3.8 °C', Tanker: '9,380 L (docket)', 'Vat against tanker': '\u2212376 L (\u22124.0 %)' },
        { 'Submitted pickup': '09 Mar 2026 14:00 NZDT', Volume: '7,000 L', Temperature: '3.8 °C', 'Entered by': 'Another user of the farm' },
      ]);
      // Delete only for the one who entered it.
      expect(within(vat1).getAllByRole('button', { name: /^Delete/ })).toHaveLength(1);
      expect(within(screen.getByRole('region', { name: 'Vat 2' })).getByText('18:00', { exact: false })).toBeInTheDocument();
      expect(api.callsOf('FARMER_PICKUP_LIST')[0]?.fields.get('farm')).toBe('farm-1');
      expect(api.callsOf('FARMER_PICKUP_LIST')[0]?.fields.get('page_index')).toBe('1');
    });

    it("deletes one's own pickup after 'Are you sure you want to delete it?', and Cancel deletes nothing", async () => {
      let list = [pickup('2026-03-10T01:00:00.000Z', 1, true)];
      const { api, user } = await openWithPickups([], {
        FARMER_PICKUP_LIST: (f) => ({ range: range(Number(f.get('page_index'))), list }),
        DELETE_PICKUP: () => {
          list = [];
          return 'success';
        },
      });
      const remove = await screen.findByRole('button', { name: 'Delete the pickup of Vat 1 at 10 Mar 2026 14:00 NZDT' });
      await user.click(remove);
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('Are you sure you want to delete it?');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(api.callsOf('DELETE_PICKUP')).toHaveLength(0);

      await user.click(remove);
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(api.callsOf('DELETE_PICKUP')).toHaveLength(1));
      const call = api.callsOf('DELETE_PICKUP')[0];
      expect([call?.fields.get('farm_id'), call?.fields.get('vat'), call?.fields.get('datetime')]).toEqual(['farm-1', '1', '2026-03-10 01:00:00']);
      await waitFor(() => expect(screen.queryByText('Submitted pickup')).not.toBeInTheDocument());
    });
  });
});

describe('/dts/agitator: the agitator stop periods', () => {
  const stops: AgitatorList = {
    range: range(1),
    list: [
      {
        _id: 'dev-2~agitator_stop~2026-03-10T01:00:00.000Z',
        kind: 'agitator_stop',
        device_id: 'dev-2',
        activity: { start: point('2026-03-10T01:00:00.000Z', 4000, 4.1), end: null },
        vat_number: 2,
        duration_min: null,
      },
      {
        _id: 'dev-2~agitator_stop~2026-03-09T01:00:00.000Z',
        kind: 'agitator_stop',
        device_id: 'dev-2',
        activity: { start: point('2026-03-09T01:00:00.000Z', 3000, 4.4), end: point('2026-03-09T02:35:00.000Z', 3000, 5) },
        vat_number: 2,
        duration_min: 95,
      },
    ],
  };

  it('lists each stop per vat, newest first, one still going as such', async () => {
    await open('/dts/agitator', { FARMER_AGITATOR_LIST: () => stops }, 'Agitator stops');
    const vat2 = await screen.findByRole('region', { name: 'Vat 2' });
    const [open1, closed] = within(vat2).getAllByRole('listitem');
    expect(facts(open1 as HTMLElement)).toMatchObject({ Stopped: '10 Mar 2026 14:00 NZDT', Restarted: 'Still stopped', Duration: '–' });
    expect(facts(closed as HTMLElement)).toEqual({ Stopped: '09 Mar 2026 14:00 NZDT', Restarted: '09 Mar 2026 15:35 NZDT', Duration: '1 h 35 min', Milk: '3,000 L, 4.4 °C' });
    expect(within(screen.getByRole('region', { name: 'Vat 1' })).getByText('No agitator stops in these days.')).toBeInTheDocument();
  });
});

describe('/dts/dashboard/data: Milk storage data', () => {
  const history = [
    {
      device: device(1),
      from: '2026-03-03T12:00:00.000Z',
      to: '2026-03-10T12:00:00.000Z',
      storages: [
        { _id: 'dev-1~storage~2026-03-08T10:00:00.000Z', kind: 'storage', device_id: 'dev-1', activity: { start: point('2026-03-08T10:00:00.000Z', 500, 12), end: point('2026-03-09T20:00:00.000Z', 9000, 3.8) } },
        { _id: 'dev-1~storage~2026-03-10T05:00:00.000Z', kind: 'storage', device_id: 'dev-1', activity: { start: point('2026-03-10T05:00:00.000Z', 400, 11), end: null } },
      ],
      detailData: [
        { published_at: '2026-03-08T10:00:00.000Z', milk_level: 10, milk_volume: 500, temp1: 12.04 },
        { published_at: '2026-03-09T19:00:00.000Z', milk_level: 900, milk_volume: 9004, temp1: 3.8 },
        { published_at: '2026-03-10T06:00:00.000Z', milk_level: 300, milk_volume: 2100, temp1: 9.6 },
      ],
      coolerData: [],
      phyStateData: [],
    },
    { device: device(2), from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', storages: [], detailData: [], coolerData: [], phyStateData: [] },
  ];

  it('lists each vat’s storages of 7 days newest first with peaks, each opening its storage page', async () => {
    const { router, user } = await open('/dts/dashboard/data', { FARMER_STORAGE_HISTORY: () => history }, 'Milk storage data');
    const vat1 = await screen.findByRole('region', { name: 'Vat 1' });
    const [current, earlier] = within(vat1).getAllByRole('listitem');
    expect(facts(current as HTMLElement)).toEqual({ Started: '10 Mar 2026 18:00 NZDT', Ended: 'In the vat', 'Peak volume': '2,100 L', 'Peak temperature': '9.6 °C' });
    expect(facts(earlier as HTMLElement)).toEqual({ Started: '08 Mar 2026 23:00 NZDT', Ended: '10 Mar 2026 09:00 NZDT', 'Peak volume': '9,000 L', 'Peak temperature': '12.0 °C' });
    expect(within(screen.getByRole('region', { name: 'Vat 2' })).getByText('No storages in the last 7 days.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Collections' })).toHaveAttribute('href', '/dts/collection');
    expect(screen.getByRole('link', { name: 'Agitator stops' })).toHaveAttribute('href', '/dts/agitator');
    await user.click(within(earlier as HTMLElement).getByRole('link', { name: /View/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dts/storage/${encodeURIComponent('dev-1~storage~2026-03-08T10:00:00.000Z')}`));
  });
});
