import { act, screen, waitFor, within } from '@testing-library/react';
import { render } from '@testing-library/react';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Farm } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';
import { build } from '../../../testing/build';
import { fakeApi, stubWebConfig, type FakeAnswer } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { readSelectedFarm, SELECTED_FARM_COOKIE, writeSelectedFarm } from '../utils/selected-farm';
import { reloadPage } from '../../../lib/page-reload';
import { FarmTabs } from './farm-tabs';
import { expectMenuToggleHidesMenu } from '../../../testing/side-menu';

vi.mock('../../../lib/page-reload', () => ({ reloadPage: vi.fn() }));

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const FARMS: Farm[] = [
  build.farm({ _id: 'farm-1', fonterra_id: '31245', name: 'Totara Downs' }),
  build.farm({ _id: 'farm-2', fonterra_id: 'FON88', name: 'Kowhai Flats' }),
  build.farm({ _id: 'farm-3', fonterra_id: 'OCD40721', name: 'Rimu Creek' }),
];

const clearCookie = () => {
  document.cookie = `${SELECTED_FARM_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
};

beforeEach(() => {
  clearCookie();
  vi.mocked(reloadPage).mockClear();
  vi.mocked(fetchAuthSession).mockResolvedValue({ tokens: undefined } as never);
  stubWebConfig({ herdSiteUrl: 'https://herd.example/login' });
});

afterEach(() => {
  clearCookie();
  vi.unstubAllGlobals();
});

interface Setup {
  readonly user?: Partial<User>;
  readonly farms?: Farm[];
  readonly organization?: { _id: string; name: string } | null;
  readonly userAnswer?: FakeAnswer;
  /** FARMER_NOTIFICATION_STATUS's answer per farm id; 'NO' for any other. */
  readonly unread?: Readonly<Record<string, 'YES' | 'NO'>>;
}

const openShell = async (path = '/dts/milking', { user = {}, farms = FARMS, organization = null, userAnswer, unread = {} }: Setup = {}) => {
  const api = fakeApi({
    USER_ONE_GET_BY_TOKEN: () => userAnswer ?? { user: build.user(user), listFarm: farms, organization },
    FARMER_NOTIFICATION_STATUS: (fields) => unread[fields.get('farm') ?? ''] ?? 'NO',
    FARMER_DASHBOARD_GET: (fields) => ({ farm: farms.find((f) => f._id === fields.get('farm')) ?? build.farm(), vats: [], knode: [] }),
    FARMER_MILKING_LIST: () => ({ range: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-31T00:00:00.000Z', startDate: '2026-01-01', endDate: '2026-01-31', page_index: 1 }, list: [] }),
    EQUIPMENT_GET: () => [{ type: 1, id: 1, value: 0, sub_value: 0 }],
    EQUIPMENT_DATA_GET: () => ({ vat1: null, vat2: null }),
    WESTLANDS_FARMS: () => [{ _id: 'farm-wes', fonterra_id: 'WES118' }],
  });
  const app = renderApp(path, { apiClient: testApiClient(api.fetch) });
  return { ...app, api };
};

/** The session Amplify holds: its access token's groups decide the role of the §6 routing. */
const signedInAs = (groups: string[]) =>
  vi.mocked(fetchAuthSession).mockResolvedValue({
    tokens: { accessToken: { payload: { 'cognito:groups': groups, 'vatman:totp': '1700000000', auth_time: 1700000000 }, toString: () => 'token' } },
  } as never);

const ready = () => screen.findByRole('navigation', { name: 'Main menu' });
const menuLabels = () => within(screen.getByRole('navigation', { name: 'Main menu' })).getAllByRole('link').map((link) => link.textContent);

describe('shell redirects (farmer §2.2, §4)', () => {
  it('a 401 goes to login with the encoded current path as reurl', async () => {
    const { router } = await openShell('/dts/milking?vat=2', { userAnswer: { status: 401, body: { message: 'Unauthorized' } } });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dts/login/${encodeURIComponent('/dts/milking?vat=2')}`));
  });

  it('an answer without a user goes to login with reurl', async () => {
    const { router } = await openShell('/dashboard', { userAnswer: { user: null, listFarm: [], organization: null } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login/%2Fdashboard'));
  });

  it('a farmer without farms goes to the permission page', async () => {
    signedInAs([]);
    const { router } = await openShell('/dashboard', { farms: [] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/permission'));
    expect(await screen.findByRole('heading', { name: 'No Permission' })).toBeInTheDocument();
  });

  it('an Admin without farms goes to /dts/users, inside the shell with the Admin menu (farmer §6)', async () => {
    signedInAs(['Admin']);
    const { router } = await openShell('/dashboard', { farms: [], user: { role: 'Admin' } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/users'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(menuLabels()).toEqual(['Dashboard', 'Milk', 'Alerts', 'Fleet', 'Users', 'Devices', 'Farms', 'Config', 'New Install', 'Install Log', 'Check Install', 'Help', 'Calibration', 'Watchman', 'Milk Quality', 'Westlands Data']);
    expect(screen.queryByRole('button', { name: /^Farm/ })).not.toBeInTheDocument();
  });

  it('Milk Quality without farms goes to its own area (farmer §6)', async () => {
    signedInAs(['MilkQuality']);
    const { router } = await openShell('/dts/dashboard', { farms: [], user: { role: 'Milk Quality' } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/fonterra/milkquality'));
  });

  it('a herd user without farms stays on the module dashboard: greeting and herd card, no farm call', async () => {
    signedInAs([]);
    const { router, api } = await openShell('/dashboard', { farms: [], user: { is_herd_enabled: 1, token_id: 'tok' } });
    expect(await screen.findByRole('heading', { name: /^Welcome/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(api.callsOf('FARMER_DASHBOARD_GET')).toHaveLength(0);
  });

  it('a user without farms may open the screens that need none', async () => {
    signedInAs([]);
    const { router } = await openShell('/dts/user/profile', { farms: [] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dts/user/profile');
  });

  it('a 403 (no profile) goes to the permission page without a server-error notice', async () => {
    signedInAs([]);
    const { router } = await openShell('/dashboard', { userAnswer: { status: 403, body: { message: 'Forbidden' } } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/permission'));
    expect(screen.queryByText('Server Error!')).not.toBeInTheDocument();
  });

  it('a server error shows the notice and a retry, and retrying loads the shell', async () => {
    let fail = true;
    const api = fakeApi({
      USER_ONE_GET_BY_TOKEN: () => (fail ? { status: 500, body: { message: 'boom' } } : { user: build.user(), listFarm: FARMS, organization: null }),
    });
    const { user } = renderApp('/dts/milking', { apiClient: testApiClient(api.fetch) });
    expect(await screen.findByRole('heading', { name: 'Your account could not be loaded' })).toBeInTheDocument();
    expect(screen.getByText('boom')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await ready()).toBeInTheDocument();
  });
});

describe('left menu by role (farmer §2.2, §6)', () => {
  it.each([
    ['User', ['Dashboard', 'Milk', 'Alerts']],
    ['Admin', ['Dashboard', 'Milk', 'Alerts', 'Fleet', 'Users', 'Devices', 'Farms', 'Config', 'New Install', 'Install Log', 'Check Install', 'Help', 'Calibration', 'Watchman', 'Milk Quality', 'Westlands Data']],
    ['Westlands', ['Dashboard', 'Milk', 'Alerts', 'Westlands Data']],
    ['Installer', ['Fleet', 'Devices', 'Config', 'New Install', 'Install Log', 'Check Install', 'Help', 'Calibration', 'Watchman']],
    ['Milk Quality', ['Dashboard', 'Milk', 'Alerts']],
  ])('%s', async (role, expected) => {
    await openShell('/dts/milking', { user: { role } });
    await ready();
    expect(menuLabels()).toEqual(expected);
  });

  it('shows the herd link with the encoded token when herd is enabled and the site configured', async () => {
    await openShell('/dts/milking', { user: { is_herd_enabled: 1, token_id: 'tok/1' } });
    await ready();
    const herd = await screen.findByRole('link', { name: 'Herd' });
    expect(herd).toHaveAttribute('href', 'https://herd.example/login?token=tok%2F1');
  });

  it('hides the herd link when herd is not enabled', async () => {
    await openShell('/dts/milking', { user: { is_herd_enabled: 0, token_id: 'tok' } });
    await ready();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByRole('link', { name: 'Herd' })).not.toBeInTheDocument();
  });

  it('hides the herd link when no herd site is configured', async () => {
    stubWebConfig();
    await openShell('/dts/milking', { user: { is_herd_enabled: 1, token_id: 'tok' } });
    await ready();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByRole('link', { name: 'Herd' })).not.toBeInTheDocument();
  });

  it('the menu toggle collapses and reopens the menu', async () => {
    const { user } = await openShell();
    await ready();
    await expectMenuToggleHidesMenu(user);
  });
});

describe('top bar (farmer §2.2)', () => {
  it('links to the organization group when there is one', async () => {
    await openShell('/dts/milking', { organization: { _id: 'org 1', name: 'North' } });
    await ready();
    expect(screen.getByRole('link', { name: 'Group' })).toHaveAttribute('href', '/dts/group/org%201');
  });

  it('has no group link without an organization, or for demo accounts', async () => {
    await openShell('/dts/milking', { organization: null });
    await ready();
    expect(screen.queryByRole('link', { name: 'Group' })).not.toBeInTheDocument();
  });

  it('has no group link for a demo account', async () => {
    await openShell('/dts/milking', { organization: { _id: 'org-1', name: 'North' }, user: { is_demo: true } });
    await ready();
    expect(screen.queryByRole('link', { name: 'Group' })).not.toBeInTheDocument();
  });

  it('refresh fetches the loaded data again', async () => {
    writeSelectedFarm('farm-1');
    const { user, api } = await openShell();
    await ready();
    expect(api.callsOf('USER_ONE_GET_BY_TOKEN')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(api.callsOf('USER_ONE_GET_BY_TOKEN')).toHaveLength(2));
  });

  it('the user menu holds Profile, Notification Settings, Help and Logout', async () => {
    const { user } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Account/ }));
    const menu = screen.getByRole('menu', { name: 'Account' });
    expect(within(menu).getByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/dts/user/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Notification Settings' })).toHaveAttribute('href', '/dts/user/setting');
    expect(within(menu).getByRole('menuitem', { name: 'Help' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
  });

  it('farmer row 224: Help in the user menu opens the help player', async () => {
    const { user } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Account/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Help' }));
    const dialog = await screen.findByRole('dialog', { name: 'Help' });
    expect(within(dialog).getByRole('status', { name: 'Player' })).toHaveTextContent('Starts in 3 seconds');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Help' })).not.toBeInTheDocument();
  });

  it.each([
    ['/dts/milkquality', 'Milk Quality', 'Milk quality data'],
    ['/dts/westlandsdata', 'Westlands Data', 'Westlands data'],
  ])('%s is the milk data view inside the shell (operator §2), with no coming-soon line', async (path, heading, form) => {
    await openShell(path, { user: { role: 'Admin' } });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(await screen.findByRole('form', { name: form })).toBeInTheDocument();
    expect(screen.queryByText(/^Coming soon: /)).not.toBeInTheDocument();
  });

  it('Logout asks first; Cancel stays signed in', async () => {
    const { user, router } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Account/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to logout?' });
    expect(dialog).toHaveAccessibleDescription('Once you quit, you will need to sign in again to use the service.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(signOut).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/dts/milking');
  });

  it('Logout OK signs out and opens the login page', async () => {
    const { user, router } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Account/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login'));
    expect(signOut).toHaveBeenCalled();
  });
});

describe('selected farm (farmer §3 Cookies, §4)', () => {
  it('with none stored: asks without a farm, then stores and sends the first farm', async () => {
    const { api } = await openShell();
    await ready();
    await waitFor(() => expect(readSelectedFarm()).toBe('farm-1'));
    const sent = api.callsOf('USER_ONE_GET_BY_TOKEN').map((call) => call.fields.get('farm'));
    expect(sent[0]).toBeNull();
    await waitFor(() => expect(api.callsOf('USER_ONE_GET_BY_TOKEN').at(-1)?.fields.get('farm')).toBe('farm-1'));
  });

  it('keeps a stored farm that is among the user farms and sends it', async () => {
    writeSelectedFarm('farm-3');
    const { api } = await openShell();
    await ready();
    expect(screen.getByRole('button', { name: /^Farm/ })).toHaveTextContent('OCD40721');
    expect(readSelectedFarm()).toBe('farm-3');
    expect(api.callsOf('USER_ONE_GET_BY_TOKEN').map((call) => call.fields.get('farm'))).toEqual(['farm-3']);
  });

  it('replaces a stored farm the user does not have with the first farm', async () => {
    writeSelectedFarm('someone-elses-farm');
    await openShell();
    await ready();
    await waitFor(() => expect(readSelectedFarm()).toBe('farm-1'));
    expect(screen.getByRole('button', { name: /^Farm/ })).toHaveTextContent('31245');
  });
});

describe('farm selector (farmer §2.2)', () => {
  it('lists farms by farm code and narrows them by search', async () => {
    const { user } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Farm/ }));
    const list = screen.getByRole('listbox', { name: 'Farms' });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['31245', 'FON88', 'OCD40721']);
    await user.type(screen.getByRole('combobox', { name: 'Search farms' }), 'fon');
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['FON88']);
    await user.clear(screen.getByRole('combobox', { name: 'Search farms' }));
    await user.type(screen.getByRole('combobox', { name: 'Search farms' }), 'zzz');
    expect(within(list).queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText(/No farm matches/)).toBeInTheDocument();
  });

  it('shows farm names for demo accounts, and searches them', async () => {
    const { user } = await openShell('/dts/milking', { user: { is_demo: true } });
    await ready();
    expect(screen.getByRole('button', { name: /^Farm/ })).toHaveTextContent('Totara Downs');
    await user.click(screen.getByRole('button', { name: /^Farm/ }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Totara Downs', 'Kowhai Flats', 'Rimu Creek']);
    await user.type(screen.getByRole('combobox', { name: 'Search farms' }), 'rimu');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Rimu Creek']);
  });

  it('choosing a farm stores it and reloads the page (farmer §2.2)', async () => {
    writeSelectedFarm('farm-1');
    const { user } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Farm/ }));
    await user.click(screen.getByRole('option', { name: 'FON88' }));
    expect(readSelectedFarm()).toBe('farm-2');
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('choosing the farm already selected changes nothing', async () => {
    writeSelectedFarm('farm-1');
    const { user } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Farm/ }));
    await user.click(screen.getByRole('option', { name: '31245' }));
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('the keyboard picks the highlighted match with Enter', async () => {
    writeSelectedFarm('farm-1');
    const { user } = await openShell();
    await ready();
    await user.click(screen.getByRole('button', { name: /^Farm/ }));
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(readSelectedFarm()).toBe('farm-3');
  });
});

describe('farm tab bar (farmer §2.2)', () => {
  it('shows the five tabs of §2.2 and Compliance on the milk pages and marks the current one', async () => {
    await openShell('/dts/equipment');
    const tabs = await screen.findByRole('navigation', { name: 'Farm sections' });
    const links = within(tabs).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Dashboard', '/dts/dashboard'],
      ['Milking', '/dts/milking'],
      ['Compliance', '/dts/compliance'],
      ['Equipment', '/dts/equipment'],
      ['Notifications', '/dts/notification'],
      ['Settings', '/dts/setting/alert'],
    ]);
    expect(within(tabs).getByRole('link', { name: 'Equipment' })).toHaveAttribute('aria-current', 'page');
  });

  it('/dts/equipment is the Equipment tab itself, asking for the farm’s equipment, with no coming-soon line', async () => {
    const { api } = await openShell('/dts/equipment');
    expect(await screen.findByRole('heading', { level: 1, name: 'Equipment' })).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Equipment diagram' })).toBeInTheDocument();
    expect(api.callsOf('EQUIPMENT_GET')[0]?.fields.get('farm')).toBe((FARMS[0] as Farm)._id);
    expect(screen.queryByText(/^Coming soon: /)).not.toBeInTheDocument();
  });

  it('/dts/milking is the Milking tab itself, asking for the farm’s milkings, with no coming-soon line', async () => {
    const { api } = await openShell('/dts/milking');
    expect(await screen.findByRole('heading', { level: 1, name: 'Milking' })).toBeInTheDocument();
    expect(await screen.findByText('No milkings in these 30 days.')).toBeInTheDocument();
    expect(api.callsOf('FARMER_MILKING_LIST')[0]?.fields.get('farm')).toBe((FARMS[0] as Farm)._id);
    expect(screen.queryByText(/^Coming soon: /)).not.toBeInTheDocument();
  });

  it('moves between tabs', async () => {
    const { user, router } = await openShell('/dts/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/setting/alert'));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  });

  it('the module dashboard has no tab bar', async () => {
    await openShell('/dashboard');
    await screen.findByRole('heading', { name: /^Welcome/ });
    expect(screen.queryByRole('navigation', { name: 'Farm sections' })).not.toBeInTheDocument();
  });

  it("marks Notifications when the selected farm's notification status is YES, and not otherwise", async () => {
    const first = FARMS[0] as Farm;
    const { api } = await openShell('/dts/milking', { unread: { [first._id]: 'YES' } });
    expect(await screen.findByRole('link', { name: /^Notifications\s*\(new\)$/ })).toBeInTheDocument();
    expect(api.callsOf('FARMER_NOTIFICATION_STATUS').map((c) => c.fields.get('farm'))).toContain(first._id);
  });

  it('shows no marker when the status is NO', async () => {
    const { api } = await openShell('/dts/milking');
    await waitFor(() => expect(api.callsOf('FARMER_NOTIFICATION_STATUS')).not.toHaveLength(0));
    expect(screen.getByRole('link', { name: 'Notifications' })).toHaveTextContent(/^Notifications$/);
  });

  it('marks Notifications only when told to', () => {
    const { rerender } = render(
      <MemoryRouter>
        <FarmTabs />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Notifications' })).toHaveTextContent(/^Notifications$/);
    act(() =>
      rerender(
        <MemoryRouter>
          <FarmTabs notificationsMarked />
        </MemoryRouter>,
      ),
    );
    expect(screen.getByRole('link', { name: /^Notifications\s*\(new\)$/ })).toBeInTheDocument();
  });
});
