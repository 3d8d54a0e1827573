import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Chart as ChartJS } from 'chart.js';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import type { Farm } from '@shared/entities/farm';
import { isLiveRange, type VatLastAll } from '../api/dashboard-last-all';
import { build } from '../../../testing/build';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { lineChartOptions, Y_AXIS_WIDTH } from '../../../components/charts/vat-line-chart';
import { chartOn } from '../../../testing/charts';
import { inFormAsked } from '../../../testing/range-columns';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

// 12:00 UTC is 01:00 on 11 March in Auckland (NZDT): the farm's today is 2026-03-11.
const NOW = Date.parse('2026-03-10T12:00:00Z');

const item = (n: number, pkg: Farm['package']): VatLastAll => ({
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

withSelectedFarm();
withNow(NOW);

const history = (n: number) => ({
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

const openDashboard = (pkg: Farm['package'], lastAll?: FakeHandler, storageHistory: FakeHandler = () => []) =>
  openFarmerScreen(
    '/dts/dashboard',
    { FARMER_DASHBOARD_LAST: () => [], FARMER_DASHBOARD_LAST_ALL: inFormAsked(lastAll ?? (() => [item(1, pkg), item(2, pkg)])), FARMER_STORAGE_HISTORY: storageHistory },
    { farms: [build.farm({ _id: 'farm-1', package: pkg })], ready: 'Vatman' },
  );

describe('milk dashboard charts (farmer §2.5, §2.17)', () => {
  it('draws a temperature and a volume chart per vat, titled Vat {n}, for the last 2 days (page 1)', async () => {
    const { api } = await openDashboard('Vat-Man Lite');
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(within(vat1).getByRole('heading', { level: 2, name: 'Vat 1' })).toBeInTheDocument();
    expect(within(vat1).getByRole('img', { name: 'Vat 1 temperatures' }).tagName).toBe('CANVAS');
    expect(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }).tagName).toBe('CANVAS');
    expect(within(vat1).getByRole('img', { name: 'Vat 1 stirrer' }).tagName).toBe('CANVAS');
    expect(screen.getByRole('region', { name: 'Vat 2 charts' })).toBeInTheDocument();
    const call = api.callsOf('FARMER_DASHBOARD_LAST_ALL')[0];
    expect(call?.fields.get('farm')).toBe('farm-1');
    expect(call?.fields.get('page_index')).toBe('1');
    // The charts draw from the columnar form (decision 111).
    expect(call?.fields.get('form')).toBe('columns');
    expect(call?.fields.has('startDate')).toBe(false);
  });

  it('shades agitator stops on the volume chart and battery-off on both; temperature has the seven §9 temperatures (all but Vat hidden) and the 6 and 10 °C lines', async () => {
    await openDashboard('Vat-Man Lite', () => [
      { ...item(1, 'Vat-Man Lite'), batteryData: [{ published_at: '2026-03-10T09:00:00Z', raw: { status: '2' } }, { published_at: '2026-03-10T09:30:00Z', raw: { status: '3' } }] },
    ]);
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    const volume = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }));
    const temperature = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 temperatures' }));
    const bandCounts = (chart: typeof volume) => chart?.options.plugins?.bands?.shaded?.map((s) => s?.bands?.length);
    expect(bandCounts(volume)).toEqual([1, 0, 1]);
    expect(bandCounts(temperature)).toEqual([0, 1]);
    expect(volume?.data.datasets.map((d) => d.label)).toEqual(['Milk Volume']);
    expect(temperature?.data.datasets.map((d) => [d.label, d.hidden])).toEqual([
      ['Vat', false],
      ['Inlet', true],
      ['Plate', true],
      ['Ambient', true],
      ['CIP', true],
      ['Milk In', true],
      ['Water In', true],
      ['10 °C', false],
      ['6 °C', false],
    ]);
  });

  it('draws each of the eight series from its field (Milk In and Water In from the cooler data) and marks milking start and end on every chart of the vat', async () => {
    await openDashboard('Vat-Man Lite', () => [
      {
        ...item(1, 'Vat-Man Lite'),
        detailData: [{ published_at: '2026-03-10T10:00:00Z', milk_volume: 1000, temp1: 4, temp2: 30, temp3: 12, temp4: 18, temp5: 60, agitator_status: 1 }],
        coolerData: [{ published_at: '2026-03-10T10:00:00Z', milk_in: 33, water_in: 14 }],
        // eom counts as milking (§4): one milking from 09:00 to 09:50.
        phyStateData: [
          { start: '2026-03-10T08:00:00Z', end: '2026-03-10T09:00:00Z', phystate: 'storage' },
          { start: '2026-03-10T09:00:00Z', end: '2026-03-10T09:40:00Z', phystate: 'milking' },
          { start: '2026-03-10T09:40:00Z', end: '2026-03-10T09:50:00Z', phystate: 'eom' },
          { start: '2026-03-10T09:50:00Z', end: '2026-03-10T11:00:00Z', phystate: 'storage' },
        ],
      },
    ]);
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    const t = Date.parse('2026-03-10T10:00:00Z');
    const volume = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }));
    const temperature = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 temperatures' }));
    const stirrer = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 stirrer' }));
    const values = (chart: typeof volume) => Object.fromEntries(chart.data.datasets.filter((d) => !(d as { reference?: boolean }).reference).map((d) => [d.label, d.data]));
    expect({ ...values(volume), ...values(temperature) }).toEqual({
      'Milk Volume': [{ x: t, y: 1000 }],
      Vat: [{ x: t, y: 4 }],
      Inlet: [{ x: t, y: 30 }],
      Plate: [{ x: t, y: 12 }],
      Ambient: [{ x: t, y: 18 }],
      CIP: [{ x: t, y: 60 }],
      'Milk In': [{ x: t, y: 33 }],
      'Water In': [{ x: t, y: 14 }],
    });
    for (const chart of [volume, temperature, stirrer]) {
      expect(chart.options.plugins?.markers?.lines?.map((m) => [m?.label, m?.at])).toEqual([
        ['Milking start', Date.parse('2026-03-10T09:00:00Z')],
        ['Milking end', Date.parse('2026-03-10T09:50:00Z')],
      ]);
    }
  });

  it('refreshes every 120 s with only what is newer than its answer (since), and draws the two merged', async () => {
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    const newer = (n: number): VatLastAll => ({
      ...item(n, 'Vat-Man Lite'),
      since: '2026-03-10T11:00:00Z',
      points: 1,
      detailData: [{ published_at: '2026-03-10T11:01:00Z', milk_volume: 1600, temp1: 3.4 }],
      agitatorData: { listStop: [] },
    });
    const { api } = await openDashboard('Vat-Man Lite', (fields) => (fields.has('since') ? [newer(1), newer(2)] : [item(1, 'Vat-Man Lite'), item(2, 'Vat-Man Lite')]));
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    const volume = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }));
    await waitFor(() => expect(volume.data.datasets.find((d) => d.label === 'Milk Volume')?.data).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    await waitFor(() => expect(api.callsOf('FARMER_DASHBOARD_LAST_ALL')).toHaveLength(2));
    const [first, refresh] = api.callsOf('FARMER_DASHBOARD_LAST_ALL');
    expect(first?.fields.has('since')).toBe(false);
    // The newest point both vats have; the same page.
    expect(refresh?.fields.get('since')).toBe('2026-03-10T11:00:00.000Z');
    expect(refresh?.fields.get('page_index')).toBe('1');
    await waitFor(() =>
      expect(ChartJS.getChart(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }) as HTMLCanvasElement)?.data.datasets.find((d) => d.label === 'Milk Volume')?.data).toEqual([
        { x: Date.parse('2026-03-10T10:00:00Z'), y: 1000 },
        { x: Date.parse('2026-03-10T11:00:00Z'), y: 1500 },
        { x: Date.parse('2026-03-10T11:01:00Z'), y: 1600 },
      ]),
    );
  });

  it("tooltips read the farm's clock in §9's chart format and litres to the nearest 10 L", async () => {
    await openDashboard('Vat-Man Lite', () => [{ ...item(1, 'Vat-Man Lite'), detailData: [{ published_at: '2026-03-10T10:00:00Z', milk_volume: 1234, temp1: 4.26 }] }]);
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    const volume = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }));
    const callbacks = volume.options.plugins?.tooltip?.callbacks as unknown as {
      title: (items: unknown[]) => string;
      label: (item: unknown) => string;
    };
    const point = { parsed: { x: Date.parse('2026-03-10T10:00:00Z'), y: 1234 }, dataset: { label: 'Milk Volume' } };
    // 10:00 UTC is 23:00 NZDT in Auckland; the tests' browser is in UTC, so the zone is named.
    expect(callbacks.title([point])).toBe('Tue, 10th March 23:00 NZDT');
    expect(callbacks.label(point)).toBe('Milk Volume: 1,230 L');
  });

  it('zooming one chart applies its x range to every chart; Reset zoom zooms every chart out', async () => {
    const { user } = await openDashboard('Vat-Man Lite');
    await screen.findByRole('region', { name: 'Vat 2 charts' });
    const chartOf = (name: string) => ChartJS.getChart(screen.getByRole('img', { name }) as HTMLCanvasElement);
    const zoomed = await chartOn(screen.getByRole('img', { name: 'Vat 1 temperatures' }));
    const min = Date.parse('2026-03-10T09:00:00Z');
    const max = Date.parse('2026-03-10T11:00:00Z');
    const onZoomComplete = zoomed?.options.plugins?.zoom?.zoom?.onZoomComplete;
    expect(onZoomComplete).toBeTypeOf('function');
    act(() => onZoomComplete?.({ chart: { scales: { x: { min, max } } } as never }));
    await waitFor(() => expect(chartOf('Vat 2 milk volume')?.options.scales?.['x']).toMatchObject({ min, max }));
    expect(chartOf('Vat 1 milk volume')?.options.scales?.['x']).toMatchObject({ min, max });
    await user.click(screen.getByRole('button', { name: 'Reset zoom' }));
    await waitFor(() => expect(chartOf('Vat 2 milk volume')?.options.scales?.['x']).toMatchObject({ min: Date.parse('2026-03-08T12:00:00.000Z') }));
    expect(screen.queryByRole('button', { name: 'Reset zoom' })).not.toBeInTheDocument();
  });

  it("other packages page back by 2 days: Next is shown disabled on page 1 and says 'No more data!' there", async () => {
    const { api, user } = await openDashboard('Vat-Man Lite');
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(api.callsOf('FARMER_DASHBOARD_LAST_ALL').map((c) => c.fields.get('page_index'))).toEqual(['1', '2']));
    expect(next).toHaveAttribute('aria-disabled', 'false');
    await user.click(next);
    expect(next).toHaveAttribute('aria-disabled', 'true');
    // Paging forward at page 1: the message, and nothing asked past the present.
    await user.click(next);
    expect(screen.getByRole('alert')).toHaveTextContent('No more data!');
    expect(api.callsOf('FARMER_DASHBOARD_LAST_ALL').map((c) => c.fields.get('page_index'))).not.toContain('0');
  });

  it("shows the server's 'No more data!'", async () => {
    await openDashboard('Vat-Man Lite', () => ({ status: 422, body: { message: 'No more data!' } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No more data!');
    expect(screen.queryByRole('region', { name: 'Vat 1 charts' })).not.toBeInTheDocument();
  });

  it.each(['Vat-Man Pro', 'Vat-Man Auto'] as const)('%s picks From and To as DD/MM/YYYY and sends them on View', async (pkg) => {
    const { api, user } = await openDashboard(pkg);
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(screen.queryByRole('button', { name: 'Previous' })).not.toBeInTheDocument();
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    expect(from).toHaveValue('10/03/2026');
    expect(to).toHaveValue('11/03/2026');
    // The charts open on the days the picker shows (the last 2 days), not on a 48-hour page.
    const first = api.callsOf('FARMER_DASHBOARD_LAST_ALL')[0];
    expect([first?.fields.get('startDate'), first?.fields.get('endDate'), first?.fields.has('page_index')]).toEqual(['2026-03-10', '2026-03-11', false]);
    await user.clear(from);
    await user.type(from, '01/03/2026');
    await user.click(screen.getByRole('button', { name: 'View' }));
    await waitFor(() => expect(api.callsOf('FARMER_DASHBOARD_LAST_ALL')).toHaveLength(2));
    const call = api.callsOf('FARMER_DASHBOARD_LAST_ALL')[1];
    expect(call?.fields.get('startDate')).toBe('2026-03-01');
    expect(call?.fields.get('endDate')).toBe('2026-03-11');
    expect(call?.fields.has('page_index')).toBe(false);
  });

  it('Pro downloads data.csv of the vat; other packages have no Download', async () => {
    // jsdom has no object URLs: lend them for this test only.
    const { createObjectURL: ownCreate, revokeObjectURL: ownRevoke } = URL;
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:data');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    onTestFinished(() => {
      URL.createObjectURL = ownCreate;
      URL.revokeObjectURL = ownRevoke;
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('data.csv');
    });
    const { user } = await openDashboard('Vat-Man Pro');
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    await user.click(screen.getByRole('button', { name: 'Download Vat 1 data' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const text = await createObjectURL.mock.calls[0]![0].text();
    expect(text.split('\r\n')[0]).toBe('DateTime,Volume,Vat Temperature,Stirrer,milk_in,water_in');
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(3);
    click.mockRestore();
  });

  it('asks for the range at the charts\' width (two readings a pixel on the server), and data.csv at the finest', async () => {
    // jsdom lays nothing out: give the section a width for this test only.
    const width = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('milk-charts') ? 640 : 0;
    });
    onTestFinished(() => width.mockRestore());
    const { createObjectURL: ownCreate, revokeObjectURL: ownRevoke } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:data');
    URL.revokeObjectURL = vi.fn();
    onTestFinished(() => {
      URL.createObjectURL = ownCreate;
      URL.revokeObjectURL = ownRevoke;
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    onTestFinished(() => click.mockRestore());
    const { api, user } = await openDashboard('Vat-Man Pro');
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(api.callsOf('FARMER_DASHBOARD_LAST_ALL')[0]?.fields.get('points')).toBe('700');
    await user.click(screen.getByRole('button', { name: 'Download Vat 1 data' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(api.callsOf('FARMER_DASHBOARD_LAST_ALL').at(-1)?.fields.get('points')).toBe('5000');
  });

  it('Lite has no Download', async () => {
    await openDashboard('Vat-Man Lite');
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(screen.queryByRole('button', { name: /^Download/ })).not.toBeInTheDocument();
  });

  it('a range the picker refuses is not sent', async () => {
    const { api, user } = await openDashboard('Vat-Man Pro');
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '12/03/2026');
    await user.click(screen.getByRole('button', { name: 'View' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No more data!');
    expect(api.callsOf('FARMER_DASHBOARD_LAST_ALL')).toHaveLength(1);
  });
});

describe('Milk storage history (farmer §2.5)', () => {
  it('draws a volume and a temperature chart per vat for the last 7 days, storages shaded', async () => {
    const { api } = await openDashboard('Vat-Man Lite', undefined, () => [history(1)]);
    const card = await screen.findByRole('region', { name: 'Milk storage history' });
    expect(api.callsOf('FARMER_STORAGE_HISTORY')[0]?.fields.get('farm')).toBe('farm-1');
    const volume = await chartOn(within(card).getByRole('img', { name: 'Vat 1 storage volume' }));
    expect(within(card).getByRole('img', { name: 'Vat 1 storage temperatures' })).toBeInTheDocument();
    // chart.js hands its options back as proxies: read them into plain values before comparing.
    const bands = volume?.options.plugins?.bands?.shaded?.map((s) => s?.bands?.map((b) => [b?.from, b?.to]));
    expect(bands).toEqual([[[Date.parse('2026-03-09T10:00:00.000Z'), Date.parse('2026-03-10T12:00:00.000Z')]]]);
  });

  it('has the seven temperatures (all but Vat hidden) and marks milking start and end on both charts', async () => {
    await openDashboard('Vat-Man Lite', undefined, () => [history(1)]);
    const card = await screen.findByRole('region', { name: 'Milk storage history' });
    const volume = await chartOn(within(card).getByRole('img', { name: 'Vat 1 storage volume' }));
    const temperatures = await chartOn(within(card).getByRole('img', { name: 'Vat 1 storage temperatures' }));
    expect(temperatures.data.datasets.map((d) => [d.label, d.hidden])).toEqual([
      ['Vat', false],
      ['Inlet', true],
      ['Plate', true],
      ['Ambient', true],
      ['CIP', true],
      ['Milk In', true],
      ['Water In', true],
    ]);
    expect(temperatures.data.datasets.find((d) => d.label === 'Water In')?.data).toEqual([{ x: Date.parse('2026-03-09T10:00:00.000Z'), y: 13 }]);
    for (const chart of [volume, temperatures]) {
      expect(chart.options.plugins?.markers?.lines?.map((m) => [m?.label, m?.at])).toEqual([
        ['Milking start', Date.parse('2026-03-09T09:00:00.000Z')],
        ['Milking end', Date.parse('2026-03-09T10:00:00.000Z')],
      ]);
    }
  });

  it('a phone skips the history call', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(max-width: 719px)', media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() }));
    const { api } = await openDashboard('Vat-Man Lite', undefined, () => [history(1)]);
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(api.callsOf('FARMER_STORAGE_HISTORY')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Milk storage history' })).not.toBeInTheDocument();
  });
});

describe('isLiveRange: the ranges that refresh every 120 s', () => {
  it('page 1 and picked days up to today; older pages and days do not change', () => {
    const today = '2026-03-11';
    expect(isLiveRange({ kind: 'page', page: 1 }, today)).toBe(true);
    expect(isLiveRange({ kind: 'page', page: 2 }, today)).toBe(false);
    expect(isLiveRange({ kind: 'dates', startDate: '2026-03-10', endDate: '2026-03-11' }, today)).toBe(true);
    expect(isLiveRange({ kind: 'dates', startDate: '2026-03-01', endDate: '2026-03-10' }, today)).toBe(false);
  });
});

describe("the charts' clock", () => {
  it("says the axes and the picker are the farm's clock, named, when the browser's zone reads another time (the tests run in UTC)", async () => {
    await openDashboard('Vat-Man Pro');
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(screen.getByText(/^Times are the farm's \(NZ[DS]T\)\.$/)).toBeInTheDocument();
  });
});

describe('lineChartOptions', () => {
  it('the stirrer chart runs 0 to 1 and reads Stopped and Running', () => {
    const options = lineChartOptions({ unit: 'stirrer', yTitle: 'Stirrer', from: 1, to: 9, shaded: [] });
    const y = options.scales?.['y'] as { min: number; max: number; ticks: { callback: (v: number) => string } };
    expect([y.min, y.max]).toEqual([0, 1]);
    expect([y.ticks.callback(0), y.ticks.callback(1)]).toEqual(['Stopped', 'Running']);
  });

  it('starts the y axis at 0 with its title, fixes x to the range and passes the bands to the shading', () => {
    const shaded = [{ bands: [{ from: 5, to: 6 }], colour: 'red' }];
    const options = lineChartOptions({ unit: 'L', yTitle: 'Litres', from: 1, to: 9, shaded });
    expect(options.scales?.['y']).toMatchObject({ min: 0, beginAtZero: true, title: { display: true, text: 'Litres' } });
    expect(options.scales?.['x']).toMatchObject({ min: 1, max: 9 });
    expect(options.plugins?.bands).toEqual({ shaded });
  });

  it('gives every y axis the same width, so stacked charts line their time axes up', () => {
    const widths = (['L', '°C', 'stirrer'] as const).map((unit) => {
      const y = lineChartOptions({ unit, yTitle: 'y', from: 1, to: 9, shaded: [] }).scales?.['y'] as { afterFit: (axis: { width: number }) => void };
      const axis = { width: unit === 'L' ? 58 : 31 };
      y.afterFit(axis);
      return axis.width;
    });
    expect(widths).toEqual([Y_AXIS_WIDTH, Y_AXIS_WIDTH, Y_AXIS_WIDTH]);
  });
});
