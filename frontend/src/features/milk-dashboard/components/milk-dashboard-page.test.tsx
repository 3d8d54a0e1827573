import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { reloadPage } from '../../../lib/page-reload';
import type { VatLast } from '../../../lib/queries/dashboard-last';
import { build } from '../../../testing/build';
import { openFarmerScreen, readSelectedFarm, withNow, withSelectedFarm } from '../../../testing/selected-farm';

vi.mock('../../../lib/page-reload', () => ({ reloadPage: vi.fn() }));
vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const NOW = Date.parse('2026-03-10T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

const activity = (kind: 'milking' | 'collection' | 'cip' | 'storage', start: string) => ({
  _id: `dev-1~${kind}~${start}`,
  kind,
  device_id: 'dev-1',
  activity: { start: { published_at: start, milk_volume: null, temp1: null, temp2: null, temp3: null }, end: null },
});

const vatLast = (n: number, over: Partial<VatLast> = {}, last: Partial<NonNullable<VatLast['last']>> = {}): VatLast => ({
  device: { _id: `dev-${n}`, name: `thing-${n}`, vat_number: n, vat_size: 10_000, vat_auto: false, last_updated: null },
  last: { published_at: hoursAgo(0.1), milk_level: 900, milk_volume: 4_326, temp1: 4.26, agitator_status: 1, ...last },
  lastStorage: null,
  lastCollection: activity('collection', hoursAgo(26)),
  lastMilking: activity('milking', hoursAgo(3.5)),
  lastCIP: activity('cip', hoursAgo(0.5)),
  ...over,
});

withSelectedFarm();
withNow(NOW);

const openDashboard = (vats: VatLast[], { fonterra_id = '31245', path = '/dts/dashboard', farms = [build.farm({ _id: 'farm-1', fonterra_id })] }: { fonterra_id?: string; path?: string; farms?: ReturnType<typeof build.farm>[] } = {}) =>
  openFarmerScreen(path, { FARMER_DASHBOARD_LAST: () => vats, FARMER_DASHBOARD_LAST_ALL: () => [], FARMER_STORAGE_HISTORY: () => [] }, { farms, ready: 'Vatman' });

const fact = (card: HTMLElement, label: string) => within(card).getByText(label).nextElementSibling?.textContent;

describe('/dts/dashboard vat cards (farmer §2.5)', () => {
  it('asks FARMER_DASHBOARD_LAST for the selected farm', async () => {
    const { api } = await openDashboard([vatLast(1)]);
    await screen.findByRole('region', { name: 'Vat 1' });
    const call = api.callsOf('FARMER_DASHBOARD_LAST')[0];
    expect(call?.path).toBe('/api/farmer/activity');
    expect(call?.fields.get('farm')).toBe('farm-1');
  });

  it('shows a card per vat with volume to 10 L and percent, temperature to 1 decimal, agitator and relative times', async () => {
    await openDashboard([vatLast(1), vatLast(2, {}, { milk_volume: 12_004, temp1: 11.04, agitator_status: 0, milk_level: 100 })]);
    const one = await screen.findByRole('region', { name: 'Vat 1' });
    expect(fact(one, 'Volume')).toBe('4,330 L (43%)');
    expect(fact(one, 'Temperature')).toBe('4.3 °C');
    expect(within(one).getByText('4.3 °C')).toHaveAttribute('data-band', 'good');
    expect(fact(one, 'Agitator')).toBe('Running');
    expect(fact(one, 'Last Collection')).toBe('1 day ago');
    expect(fact(one, 'Last Milking Start')).toBe('3 hours ago');
    expect(fact(one, 'Last CIP')).toBe('30 minutes ago');
    // farmer row 215: the level graphic is the mm on the 2000 mm scale (§9), coloured by the mm thresholds.
    expect(within(one).getByRole('meter', { name: 'Milk level' })).toHaveAttribute('aria-valuetext', '900 mm');
    expect(within(one).getByRole('meter', { name: 'Milk level' })).toHaveAttribute('aria-valuemax', '2000');
    expect(within(one).getByRole('meter', { name: 'Milk level' }).firstElementChild).toHaveStyle({ height: '45%' });

    const two = screen.getByRole('region', { name: 'Vat 2' });
    expect(fact(two, 'Volume')).toBe('12,000 L (120%)');
    expect(within(two).getByText('11.0 °C')).toHaveAttribute('data-band', 'hot');
    expect(fact(two, 'Agitator')).toBe('Stopped');
    const twoFill = within(two).getByRole('meter', { name: 'Milk level' }).firstElementChild;
    expect(twoFill).toHaveStyle({ height: '5%' });
    expect(twoFill).toHaveAttribute('data-band', 'low');
  });

  it('a vat without a reading or activities shows dashes and an unknown agitator', async () => {
    await openDashboard([vatLast(3, { last: null, lastCollection: null, lastMilking: null, lastCIP: null })]);
    const card = await screen.findByRole('region', { name: 'Vat 3' });
    expect(fact(card, 'Volume')).toBe('—');
    expect(fact(card, 'Temperature')).toBe('—');
    expect(fact(card, 'Agitator')).toBe('Unknown');
    expect(fact(card, 'Last Milking Start')).toBe('—');
    expect(within(card).getByRole('meter', { name: 'Milk level' })).toHaveAttribute('aria-valuetext', 'No level');
  });

  it('refetches every 120 s', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const { api } = await openDashboard([vatLast(1)]);
    await screen.findByRole('region', { name: 'Vat 1' });
    expect(api.callsOf('FARMER_DASHBOARD_LAST')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(119_000);
    expect(api.callsOf('FARMER_DASHBOARD_LAST')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    await waitFor(() => expect(api.callsOf('FARMER_DASHBOARD_LAST')).toHaveLength(2));
  });

  it('a dairy-company farm sees the quality gauge of each vat (§9 bands)', async () => {
    await openDashboard([vatLast(1, {}, { quality: { currentEstCFU: 4.9 } }), vatLast(2, {}, { quality: null })], { fonterra_id: 'FON88' });
    const one = await screen.findByRole('region', { name: 'Vat 1' });
    expect(within(one).getByRole('meter', { name: 'Milk quality' })).toHaveAttribute('aria-valuetext', 'Medium risk (4.90)');
    const empty = within(screen.getByRole('region', { name: 'Vat 2' }));
    expect(empty.getByRole('meter', { name: 'Milk quality' })).toHaveAttribute('aria-valuetext', 'No quality reading');
    expect(empty.getByText('No quality reading')).toHaveClass('quality-gauge__risk--none');
    expect(empty.queryByText('Excellent')).not.toBeInTheDocument();
  });

  it('other farms have no quality gauge', async () => {
    await openDashboard([vatLast(1, {}, { quality: { currentEstCFU: 4.9 } })], { fonterra_id: 'OCD40721' });
    const one = await screen.findByRole('region', { name: 'Vat 1' });
    expect(within(one).queryByRole('meter', { name: 'Milk quality' })).not.toBeInTheDocument();
  });

  it('a farm without vats says so', async () => {
    await openDashboard([]);
    expect(await screen.findByText('This farm has no vats yet.')).toBeInTheDocument();
  });
});

describe('/dts/dashboard stale data is loud', () => {
  const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();
  const farmClock = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: build.farm().timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

  it("marks a vat quiet for over 15 minutes amber with 'No data since HH:MM' on the farm's clock; one at 14 minutes is not", async () => {
    await openDashboard([vatLast(1, {}, { published_at: minutesAgo(16) }), vatLast(2, {}, { published_at: minutesAgo(14) })]);
    const quiet = await screen.findByRole('region', { name: 'Vat 1' });
    expect(quiet).toHaveAttribute('data-stale', 'true');
    expect(within(quiet).getByRole('status')).toHaveTextContent(new RegExp(`^No data since ${farmClock(minutesAgo(16))}`));
    const sending = screen.getByRole('region', { name: 'Vat 2' });
    expect(sending).not.toHaveAttribute('data-stale');
    expect(within(sending).queryByText(/No data since/)).toBeNull();
    // One quiet vat is not a farm offline.
    expect(screen.queryByText(/This farm is offline/)).toBeNull();
  });

  it('says the whole farm is offline when no vat has sent for 15 minutes', async () => {
    await openDashboard([vatLast(1, {}, { published_at: minutesAgo(40) }), vatLast(2, {}, { published_at: minutesAgo(20) })]);
    const banner = await screen.findByRole('alert', { name: 'Outage' });
    expect(banner).toHaveTextContent(`Outage. This farm is offline: no vat has sent data since ${farmClock(minutesAgo(20))}`);
  });

  it('farmer row 220: the outage banner, once closed, stays closed for that outage, and shows again for the next one', async () => {
    localStorage.clear();
    const quietSince = minutesAgo(20);
    const first = await openDashboard([vatLast(1, {}, { published_at: quietSince })]);
    await userEvent.setup().click(within(await screen.findByRole('alert', { name: 'Outage' })).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert', { name: 'Outage' })).toBeNull();
    first.unmount();
    // Opened again: the same outage stays closed.
    const again = await openDashboard([vatLast(1, {}, { published_at: quietSince })]);
    await screen.findByRole('region', { name: 'Vat 1' });
    expect(screen.queryByRole('alert', { name: 'Outage' })).toBeNull();
    again.unmount();
    // Readings came back and stopped again: another outage, shown.
    await openDashboard([vatLast(1, {}, { published_at: minutesAgo(16) })]);
    expect(await screen.findByRole('alert', { name: 'Outage' })).toHaveTextContent('This farm is offline');
    localStorage.clear();
  });

  it('shows its own connection state when the browser is offline', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      await openDashboard([vatLast(1)]);
      await screen.findByRole('region', { name: 'Vat 1' });
      expect(screen.getByText(/^You are offline\./)).toBeInTheDocument();
      online.mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
      await waitFor(() => expect(screen.queryByText(/^You are offline\./)).toBeNull());
    } finally {
      online.mockRestore();
    }
  });
});

describe('/dts/dashboard opened from a push (?farm=…&vat=…)', () => {
  const twoFarms = [build.farm({ _id: 'farm-1' }), build.farm({ _id: 'farm-2', fonterra_id: 'OCD1' })];

  it('on the selected farm, the named vat’s card is marked and focused', async () => {
    vi.mocked(reloadPage).mockClear();
    await openDashboard([vatLast(1), vatLast(2)], { path: '/dts/dashboard?farm=farm-1&vat=2' });
    const two = await screen.findByRole('region', { name: 'Vat 2' });
    await waitFor(() => expect(two).toHaveFocus());
    expect(two).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('region', { name: 'Vat 1' })).not.toHaveAttribute('aria-current');
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('another of the user’s farms is selected and the page reloads on it', async () => {
    vi.mocked(reloadPage).mockClear();
    await openDashboard([vatLast(1)], { path: '/dts/dashboard?farm=farm-2&vat=1', farms: twoFarms });
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(readSelectedFarm()).toBe('farm-2');
    // Until the reload, farm-1's vat 1 is not the one the link meant.
    expect(await screen.findByRole('region', { name: 'Vat 1' })).not.toHaveAttribute('aria-current');
  });

  it('a farm that is not the user’s is ignored: no switch, no vat marked', async () => {
    vi.mocked(reloadPage).mockClear();
    await openDashboard([vatLast(1)], { path: '/dts/dashboard?farm=farm-9&vat=1', farms: twoFarms });
    const one = await screen.findByRole('region', { name: 'Vat 1' });
    expect(one).not.toHaveAttribute('aria-current');
    expect(reloadPage).not.toHaveBeenCalled();
    expect(readSelectedFarm()).toBe('farm-1');
  });
});
