import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Farm } from '@shared/entities/farm';
import { DEFAULT_ALERT_SETTINGS, DEFAULT_AUTO_SETTINGS } from '@shared/alerts/settings';
import type { VatLast } from '../../../lib/queries/dashboard-last';
import { build } from '../../../testing/build';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { chartOn } from '../../../testing/charts';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const NOW = Date.parse('2026-03-10T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();
const point = (published_at: string) => ({ published_at, milk_volume: null, temp1: null, temp2: null, temp3: null });
const storage = (n: number, start: string, end: string | null) => ({
  _id: `dev-${n}~storage~${start}`,
  kind: 'storage' as const,
  device_id: `dev-${n}`,
  activity: { start: point(start), end: end ? point(end) : null },
});

const vatLast = (n: number, lastStorage: VatLast['lastStorage'], auto = false): VatLast => ({
  device: { _id: `dev-${n}`, name: `thing-${n}`, vat_number: n, vat_size: 10_000, vat_auto: auto, last_updated: null },
  last: { published_at: hoursAgo(0.1), milk_volume: 4000, temp1: 4.2, agitator_status: 1, state_machine: 'storage' },
  lastStorage,
  lastCollection: null,
  lastMilking: null,
  lastCIP: null,
});

withSelectedFarm('farm-1');
withNow(NOW);

const openDashboard = (farm: Partial<Farm>, vats: VatLast[], more: Record<string, FakeHandler> = {}) =>
  openFarmerScreen(
    '/dts/dashboard',
    { FARMER_DASHBOARD_LAST: () => vats, FARMER_DASHBOARD_LAST_ALL: () => [], FARMER_STORAGE_HISTORY: () => [], ...more },
    { farms: [build.farm({ _id: 'farm-1', ...farm })], ready: () => screen.findByRole('region', { name: 'Vat 1' }) },
  );

describe('Submit Pickup on the milk dashboard (farmer §2.5, §6)', () => {
  it('shows for a farm that is not a dairy-company farm, opening /dts/pickup', async () => {
    await openDashboard({ fonterra_id: 'OCD40721' }, [vatLast(1, null)]);
    expect(screen.getByRole('link', { name: 'Submit Pickup' })).toHaveAttribute('href', '/dts/pickup');
  });

  it.each(['31245', 'FON50412'])('is hidden for the dairy-company farm %s', async (fonterra_id) => {
    await openDashboard({ fonterra_id }, [vatLast(1, null)]);
    expect(screen.queryByRole('link', { name: 'Submit Pickup' })).not.toBeInTheDocument();
  });
});

describe("the 'Milk storage data' card (farmer §2.5)", () => {
  it('has More to /dts/dashboard/data and per vat its current or last storage, opening the storage page', async () => {
    const inVat = storage(1, hoursAgo(5), null);
    await openDashboard({}, [vatLast(1, inVat), vatLast(2, storage(2, hoursAgo(50), hoursAgo(26))), vatLast(3, null)]);
    const card = screen.getByRole('region', { name: 'Milk storage data' });
    expect(within(card).getByRole('link', { name: 'More' })).toHaveAttribute('href', '/dts/dashboard/data');
    const [one, two, three] = within(card).getAllByRole('listitem');
    expect(one).toHaveTextContent('Vat 1In the vat since 5 hours ago');
    expect(within(one as HTMLElement).getByRole('link', { name: 'View Vat 1 storage' })).toHaveAttribute('href', `/dts/storage/${encodeURIComponent(inVat._id)}`);
    expect(two).toHaveTextContent('Last storage collected 1 day ago');
    expect(three).toHaveTextContent('No storage recorded yet.');
    expect(within(three as HTMLElement).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('the Vat-Man Auto tile (farmer §2.5, §4)', () => {
  const settings = () => ({
    farm: { _id: 'farm-1', package: 'Vat-Man Auto', alert_setting: DEFAULT_ALERT_SETTINGS },
    vats: [{ _id: 'dev-1', vat_number: 1, vat_auto: true, auto_settings: { ...DEFAULT_AUTO_SETTINGS, pro_refrige_temp_on: 5.5 } }],
  });

  it('shows per vat the control, the vat state and the fridge temperatures, with a link to the Auto settings', async () => {
    const { api } = await openDashboard({ package: 'Vat-Man Auto', fonterra_id: 'FON50412' }, [vatLast(1, null, true)], { USER_SETTING_ALERT_GET: settings });
    const tile = screen.getByRole('region', { name: 'Vat-Man Auto' });
    expect(within(tile).getByRole('link', { name: 'Auto settings' })).toHaveAttribute('href', '/dts/setting/alert');
    expect(await within(tile).findByText(/Fridge on at 5\.5 °C, off at 4\.0 °C/)).toBeInTheDocument();
    expect(within(tile).getByRole('listitem')).toHaveTextContent('Vat 1Automatic control · Storing milk');
    expect(api.callsOf('USER_SETTING_ALERT_GET')[0]?.fields.get('farm')).toBe('farm-1');
  });

  it("shows each vat's controller status (Auto, Manual override, Off, Unknown) with the time it last changed, on the farm's clock", async () => {
    const vats: VatLast[] = [
      // 01:05 UTC on 22 Nov is 14:05 NZDT; the tests' browser is in UTC, so the zone is named.
      { ...vatLast(1, null, true), controller: { status: 'manual', since: '2026-11-22T01:05:00.000Z' } },
      { ...vatLast(2, null, true), controller: { status: 'auto', since: null } },
      { ...vatLast(3, null, true), controller: { status: 'off', since: '2026-11-22T02:00:00.000Z' } },
      { ...vatLast(4, null, true), controller: { status: 'unknown', since: '2026-11-22T03:00:00.000Z' } },
      { ...vatLast(5, null, true), controller: null },
    ];
    await openDashboard({ package: 'Vat-Man Auto', fonterra_id: 'OCD40721' }, vats, { USER_SETTING_ALERT_GET: settings });
    const rows = within(screen.getByRole('region', { name: 'Vat-Man Auto' })).getAllByRole('listitem');
    expect(rows.map((r) => /Controller: .*$/.exec(r.textContent ?? '')?.[0])).toEqual([
      'Controller: Manual override since 22 Nov 2026 14:05 NZDT',
      'Controller: Auto for over 2 days',
      'Controller: Off since 22 Nov 2026 15:00 NZDT',
      'Controller: Unknown since 22 Nov 2026 16:00 NZDT',
      'Controller: Unknown',
    ]);
  });

  it('is not shown for other packages', async () => {
    const { api } = await openDashboard({ package: 'Vat-Man Pro' }, [vatLast(1, null)]);
    expect(screen.queryByRole('region', { name: 'Vat-Man Auto' })).not.toBeInTheDocument();
    expect(api.callsOf('USER_SETTING_ALERT_GET')).toHaveLength(0);
  });
});

describe('the storage history chart (farmer §2.7)', () => {
  it('a click on a storage’s shaded area opens that storage', async () => {
    const start = hoursAgo(30);
    const history = [
      {
        device: vatLast(1, null).device,
        from: hoursAgo(7 * 24),
        to: hoursAgo(0),
        storages: [storage(1, start, hoursAgo(10))],
        detailData: [{ published_at: start, milk_level: 300, milk_volume: 900, temp1: 4 }],
        coolerData: [],
        phyStateData: [],
      },
    ];
    const { router } = await openDashboard({}, [vatLast(1, null)], { FARMER_STORAGE_HISTORY: () => history, FARMER_STORAGE_ONE: () => ({ status: 403, body: { message: 'Forbidden' } }) });
    const canvas = await screen.findByRole('img', { name: 'Vat 1 storage volume' }, { timeout: 5000 });
    const onClick = (await chartOn(canvas)).options.onClick as unknown as (event: { x: number }, elements: [], chart: unknown) => void;
    // jsdom lays nothing out (the plot is 0 px wide), so the click gets a chart whose x axis reads the time under the pointer.
    const chartAt = (iso: string) => ({ chartArea: { left: 0, right: 600 }, scales: { x: { getValueForPixel: () => Date.parse(iso) } } });
    onClick({ x: 300 }, [], chartAt(hoursAgo(5)));
    expect(router.state.location.pathname).toBe('/dts/dashboard');
    onClick({ x: 300 }, [], chartAt(hoursAgo(20)));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dts/storage/${encodeURIComponent(`dev-1~storage~${start}`)}`));
  });
});

describe('the cooling compliance clock on the vat card', () => {
  const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
  const cooling = (r2: { predicted_at: string | null; at_risk: boolean }): VatLast['cooling'] => ({
    milking_start: at(-150),
    milking_end: at(-48),
    targets: [
      { rule: 'R1', limit: 10, deadline: at(90), reached_at: at(-40), predicted_at: null, at_risk: false },
      { rule: 'R2', limit: 6, deadline: at(72), reached_at: null, ...r2 },
    ],
    fit: { asymptote: null, tau_minutes: null, rate_per_hour: 0.3, rmse: 0.05, readings: 30 },
  });

  it("shows each deadline as a countdown and the predicted time in the farm's clock", async () => {
    // 12:00 UTC is 01:00 NZDT the next day in March; the test browser's zone is another, so times are named.
    await openDashboard({ timezone: 'Pacific/Auckland' }, [{ ...vatLast(1, null), cooling: cooling({ predicted_at: at(55), at_risk: false }) }]);
    const clock = within(screen.getByRole('region', { name: 'Vat 1' })).getByRole('region', { name: 'Cooling' });
    const [ten, six] = within(clock).getAllByRole('listitem');
    expect(ten).toHaveTextContent('10 °C reached at 00:20 NZDT');
    expect(six).toHaveTextContent('6 °C by 02:12 NZDT — 1 h 12 minPredicted 01:55 NZDT');
    expect(six).not.toHaveAttribute('data-risk');
  });

  it('marks a prediction past the deadline, and milk not cooling', async () => {
    await openDashboard({ timezone: 'Pacific/Auckland' }, [
      { ...vatLast(1, null), cooling: cooling({ predicted_at: at(130), at_risk: true }) },
      { ...vatLast(2, null), cooling: cooling({ predicted_at: null, at_risk: true }) },
    ]);
    const six = (vat: string) => within(within(screen.getByRole('region', { name: vat })).getByRole('region', { name: 'Cooling' })).getAllByRole('listitem')[1];
    expect(six('Vat 1')).toHaveTextContent('Predicted 03:10 NZDT — after the deadline');
    expect(six('Vat 1')).toHaveAttribute('data-risk', 'true');
    expect(six('Vat 2')).toHaveTextContent('Not cooling: no 6 °C time predicted');
  });

  it("drops a quiet vat's forecasts: the deadlines stay, the prediction and the capacity line go", async () => {
    const capacity = { at80: at(300), atFull: null, over80: false, nextPickup: at(1260), usualPickupTime: '09:00', fullBeforePickup: true };
    const sending = { ...vatLast(1, null), cooling: cooling({ predicted_at: at(130), at_risk: true }), capacity };
    const quiet = { ...vatLast(2, null), last: { ...sending.last, published_at: hoursAgo(0.5) }, cooling: cooling({ predicted_at: at(130), at_risk: true }), capacity };
    await openDashboard({ timezone: 'Pacific/Auckland' }, [sending, quiet]);
    const card = (vat: string) => within(screen.getByRole('region', { name: vat }));
    expect(card('Vat 1').getByTestId('capacity-forecast')).toHaveTextContent(/^Reaches 80 % at about/);
    expect(card('Vat 2').queryByTestId('capacity-forecast')).not.toBeInTheDocument();
    const six = card('Vat 2').getAllByRole('listitem').find((li) => li.textContent?.startsWith('6 °C'));
    expect(six).toHaveTextContent('6 °C by 02:12 NZDT — 1 h 12 minNo prediction: the vat is not sending');
    expect(six).toHaveAttribute('data-risk', 'true');
  });

  it('is not shown without a milk cooling', async () => {
    await openDashboard({}, [vatLast(1, null)]);
    expect(within(screen.getByRole('region', { name: 'Vat 1' })).queryByRole('region', { name: 'Cooling' })).not.toBeInTheDocument();
  });
});
