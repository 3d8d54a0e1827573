import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Farm, KnodeAsset } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';
import { build } from '../../../testing/build';
import { fakeApi, stubWebConfig } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { effluentState, reading } from './module-cards';
import { hasSeen, markSeen, SEEN_FLAG_COOKIES } from '../utils/seen-flags';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const ALL_ON = { is_water_enabled: true, is_effluent_enabled: true, is_land_enabled: true, is_weather_enabled: true };

const ASSETS: KnodeAsset[] = [
  build.asset({ type: 'Tank', asset_name: 'House tank', metric_value_1: 71, unit_1: '%', url: 'https://knode.example/house', alarm_active: false }),
  build.asset({ type: 'Tank', asset_name: 'Trough tank', metric_value_1: 120, unit_1: '%', url: 'https://knode.example/trough' }),
  build.asset({ type: 'TravellingIrrigator', asset_name: 'Irrigator 1', metric_value_1: 0, unit_1: 'm/h', url: 'https://knode.example/irr' }),
  build.asset({ type: 'TravellingIrrigator', asset_name: 'Irrigator 2', metric_value_1: 42, unit_1: 'm/h' }),
  build.asset({ type: 'PumpEffluentSurface', asset_name: 'Effluent pump', metric_value_1: 0, unit_1: 'kW' }),
  build.asset({ type: 'SoilProbe', asset_name: 'Paddock 7 probe', metric_value_1: 11.8, metric_value_2: 34, unit_1: '°C' }),
  build.asset({
    type: 'WeatherStation',
    asset_name: 'Ridge weather',
    metric_value_1: 0.6,
    metric_value_2: 12.9,
    metric_value_3: 82,
    metric_value_4: 17,
    metric_value_5: 292,
    metric_value_6: 365,
    unit_1: 'mm',
    url: 'https://knode.example/ridge',
  }),
];

const SELECTED_FARM_COOKIE = 'vatman_farm';

beforeEach(() => {
  document.cookie = `${SELECTED_FARM_COOKIE}=${encodeURIComponent('{"_id":"farm-1"}')}; path=/`;
  stubWebConfig({ herdSiteUrl: 'https://herd.example/login' });
});

afterEach(() => {
  document.cookie = `${SELECTED_FARM_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  vi.unstubAllGlobals();
});

const openDashboard = async ({ knode = {}, assets = ASSETS, user = {} }: { knode?: Partial<Farm['knode']>; assets?: KnodeAsset[]; user?: Partial<User> } = {}) => {
  const farm = build.farm({ _id: 'farm-1', knode });
  const api = fakeApi({
    USER_ONE_GET_BY_TOKEN: () => ({ user: build.user({ firstName: 'Aroha', ...user }), listFarm: [farm], organization: null }),
    FARMER_DASHBOARD_GET: () => ({ farm, vats: [], knode: assets }),
  });
  const app = renderApp('/dashboard', { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { level: 1, name: 'Welcome, Aroha' });
  await waitFor(() => expect(api.callsOf('FARMER_DASHBOARD_GET')).toHaveLength(1));
  return { ...app, api };
};

const cardTitles = () => screen.queryAllByRole('heading', { level: 2 }).map((h) => h.textContent);

describe('/dashboard (farmer §2.4)', () => {
  it('greets the user and asks for the selected farm', async () => {
    const { api } = await openDashboard();
    expect(api.callsOf('FARMER_DASHBOARD_GET')[0]?.path).toBe('/api/farmer/dashboard');
    expect(api.callsOf('FARMER_DASHBOARD_GET')[0]?.fields.get('farm')).toBe('farm-1');
  });

  it('a milk-only farm shows just the greeting', async () => {
    await openDashboard({ knode: {} });
    expect(cardTitles()).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Herd' })).not.toBeInTheDocument();
  });

  it.each([
    ['is_water_enabled', 'Water'],
    ['is_effluent_enabled', 'Effluent'],
    ['is_land_enabled', 'Land'],
    ['is_weather_enabled', 'Weather'],
  ] as const)('%s on shows only the %s card', async (flag, title) => {
    await openDashboard({ knode: { [flag]: true } });
    await screen.findByRole('heading', { level: 2, name: title });
    expect(cardTitles()).toEqual([title]);
  });

  it('all flags on show the four cards in order', async () => {
    await openDashboard({ knode: ALL_ON });
    await screen.findByRole('heading', { level: 2, name: 'Water' });
    expect(cardTitles()).toEqual(['Water', 'Effluent', 'Land', 'Weather']);
  });

  it('shows the herd card, linking to the herd site with the token, when the herd rule holds', async () => {
    await openDashboard({ user: { is_herd_enabled: 1, token_id: 'tok 9' } });
    const herd = await screen.findByRole('region', { name: 'Herd' });
    expect(within(herd).getByRole('link')).toHaveAttribute('href', 'https://herd.example/login?token=tok%209');
  });

  it('no herd card without herd enabled', async () => {
    await openDashboard({ user: { is_herd_enabled: 0, token_id: 'tok' } });
    expect(screen.queryByRole('region', { name: 'Herd' })).not.toBeInTheDocument();
  });

  it('no herd card without a configured herd site', async () => {
    stubWebConfig();
    await openDashboard({ user: { is_herd_enabled: 1, token_id: 'tok' } });
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: 'Herd' })).not.toBeInTheDocument();
  });

  it('farmer row 2: links to the sibling live-monitoring site named in the config', async () => {
    stubWebConfig({ liveMonitoringUrl: 'https://live.example/' });
    await openDashboard();
    const link = within(await screen.findByRole('region', { name: 'Live monitoring' })).getByRole('link');
    expect(link).toHaveAttribute('href', 'https://live.example/');
  });

  it('farmer row 2: no live-monitoring link when the config names no site (never a dead link)', async () => {
    stubWebConfig();
    await openDashboard();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: 'Live monitoring' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /live-monitoring/ })).not.toBeInTheDocument();
  });
});

describe('promotion banners (farmer row 126: two seen-flag cookies, 100 years)', () => {
  const clearSeen = () => {
    for (const name of Object.values(SEEN_FLAG_COOKIES)) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  };
  beforeEach(clearSeen);
  afterEach(clearSeen);

  it('farmer row 126: shows both banners until each is closed; a closed one sets its own seen flag and never shows again', async () => {
    const first = await openDashboard();
    const compliance = await screen.findByRole('complementary', { name: 'Your cooling compliance record' });
    expect(within(compliance).getByRole('link', { name: 'Open the compliance record' })).toHaveAttribute('href', '/dts/compliance');
    expect(screen.getByRole('complementary', { name: 'Vat-Man Auto runs your vat for you' })).toBeInTheDocument();
    await userEvent.setup().click(within(compliance).getByRole('button', { name: 'Close: Your cooling compliance record' }));
    expect(screen.queryByRole('complementary', { name: 'Your cooling compliance record' })).not.toBeInTheDocument();
    expect(document.cookie).toContain(`${SEEN_FLAG_COOKIES.compliance}=1`);
    expect(document.cookie).not.toContain(`${SEEN_FLAG_COOKIES.auto}=`);
    first.unmount();
    await openDashboard();
    expect(await screen.findByRole('complementary', { name: 'Vat-Man Auto runs your vat for you' })).toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Your cooling compliance record' })).not.toBeInTheDocument();
  });

  it('farmer row 126: the seen flag is written to last 100 years', () => {
    const jar = { cookie: '' };
    markSeen('auto', jar, new Date('2026-03-01T00:00:00Z'));
    expect(jar.cookie).toBe(`${SEEN_FLAG_COOKIES.auto}=1; expires=${new Date('2126-03-01T00:00:00Z').toUTCString()}; path=/; SameSite=Lax`);
    expect(hasSeen('auto', { cookie: `other=1; ${SEEN_FLAG_COOKIES.auto}=1` })).toBe(true);
    expect(hasSeen('compliance', { cookie: `${SEEN_FLAG_COOKIES.auto}=1` })).toBe(false);
  });
});

describe('Water card', () => {
  it('lists tanks with value, unit and a clamped level bar, each linking to its asset', async () => {
    await openDashboard({ knode: { is_water_enabled: true } });
    const water = await screen.findByRole('region', { name: 'Water' });
    const house = within(water).getByRole('link', { name: /House tank/ });
    expect(house).toHaveAttribute('href', 'https://knode.example/house');
    expect(house).toHaveTextContent('71 %');
    expect(within(house).getByRole('progressbar', { name: 'House tank level' })).toHaveAttribute('aria-valuenow', '71');
    expect(within(house).getByTestId('level-fill')).toHaveStyle({ height: '71%' });
    const trough = within(water).getByRole('link', { name: /Trough tank/ });
    expect(within(trough).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(within(trough).getByTestId('level-fill')).toHaveStyle({ height: '95%' });
    // Only tanks belong to the water card.
    expect(within(water).queryByText('Irrigator 1')).not.toBeInTheDocument();
  });

  it('shows the warning icon only when an asset has an alarm', async () => {
    await openDashboard({ knode: { is_water_enabled: true } });
    const water = await screen.findByRole('region', { name: 'Water' });
    expect(within(water).queryByRole('img', { name: 'Alarm active' })).not.toBeInTheDocument();
  });

  it('shows the warning icon when a tank alarms', async () => {
    await openDashboard({
      knode: { is_water_enabled: true },
      assets: [build.asset({ type: 'Tank', asset_name: 'Dairy tank', metric_value_1: 18, unit_1: '%', alarm_active: true })],
    });
    const water = await screen.findByRole('region', { name: 'Water' });
    expect(within(water).getByRole('img', { name: 'Alarm active' })).toBeInTheDocument();
  });

  it('says so when no tank reports', async () => {
    await openDashboard({ knode: { is_water_enabled: true }, assets: [] });
    expect(await screen.findByText('No water assets are reporting yet.')).toBeInTheDocument();
  });
});

describe('Effluent card', () => {
  it("reads 'Stationary' for a stopped irrigator, 'Off' for a stopped pump, else value and unit", async () => {
    await openDashboard({ knode: { is_effluent_enabled: true } });
    const effluent = await screen.findByRole('region', { name: 'Effluent' });
    expect(within(effluent).getByRole('link', { name: /Irrigator 1/ })).toHaveTextContent('Stationary');
    expect(within(effluent).getByText('Irrigator 2').closest('.asset-tile')).toHaveTextContent('42 m/h');
    expect(within(effluent).getByText('Effluent pump').closest('.asset-tile')).toHaveTextContent('Off');
  });

  it.each([
    [build.asset({ type: 'TravellingIrrigator', metric_value_1: 0, unit_1: 'm/h' }), 'Stationary'],
    [build.asset({ type: 'TravellingIrrigator', metric_value_1: 3.25, unit_1: 'm/h' }), '3.3 m/h'],
    [build.asset({ type: 'PumpEffluentSurface', metric_value_1: 0, unit_1: 'kW' }), 'Off'],
    [build.asset({ type: 'PumpEffluentSurface', metric_value_1: 5, unit_1: 'kW' }), '5 kW'],
    [build.asset({ type: 'PumpEffluentSurface', metric_value_1: null, unit_1: 'kW' }), '–'],
  ])('effluentState %#', (asset, text) => {
    expect(effluentState(asset)).toBe(text);
  });
});

describe('Land card', () => {
  it('shows soil temperature and moisture at 10cm', async () => {
    await openDashboard({ knode: { is_land_enabled: true } });
    const land = await screen.findByRole('region', { name: 'Land' });
    expect(within(land).getByText('Soil temperature at 10cm').nextSibling).toHaveTextContent('11.8 °C');
    expect(within(land).getByText('Soil moisture at 10cm').nextSibling).toHaveTextContent('34 %');
  });
});

describe('Weather card', () => {
  it('shows rainfall, temperature, humidity, wind speed, compass direction and solar radiation', async () => {
    await openDashboard({ knode: { is_weather_enabled: true } });
    const weather = await screen.findByRole('region', { name: 'Weather' });
    const value = (label: string) => within(weather).getByText(label).nextSibling?.textContent;
    expect(value('Rainfall today')).toBe('0.6 mm');
    expect(value('Temperature')).toBe('12.9 °C');
    expect(value('Humidity')).toBe('82 %');
    expect(value('Wind speed')).toBe('17 km/h');
    expect(value('Wind direction')).toBe('WNW');
    expect(value('Solar radiation')).toBe('365 W/m²');
    expect(within(weather).getByRole('link', { name: /Ridge weather/ })).toHaveAttribute('href', 'https://knode.example/ridge');
  });
});

describe('reading', () => {
  it.each([
    [12.345, '°C', '12.3 °C'],
    [0, 'mm', '0 mm'],
    [1500, 'L', '1,500 L'],
    [null, '%', '–'],
    [undefined, '%', '–'],
  ])('%s %s → %s', (value, unit, text) => {
    expect(reading(value, unit)).toBe(text);
  });
});
