import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DeviceRow } from '@shared/api/actions/admin-device';
import { build } from '../../../testing/build';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const row = build.deviceRow;

const entry = (target: string, before: string, after: string, at: string) => ({ at, by: { _id: 'sub-admin', email: 'admin@vatman.local' }, action: 'DEVICE_EDIT', target, before, after });
const NO_CHANGES = { entries: [] };

const open = async (rows: DeviceRow[], retired: DeviceRow[] = [], audit: (f: URLSearchParams) => unknown = () => NO_CHANGES) => {
  const api = fakeApi({
    DEVICE_AUDIT_LIST: audit,
    USER_ONE_GET_BY_TOKEN: () => ({ user: build.user({ role: 'Admin' }), listFarm: [], organization: null }),
    DEVICE_LIST: (f) => (f.get('isRetired') === '2' ? retired : rows),
    DEVICE_EDIT: (f) => ({ ...row('x'), _id: f.get('device_id'), status: Number(f.get('status')) }),
    DEVICE_LOAD_NAME: () => ({ checked: rows.length, renamed: [] }),
  });
  const app = renderApp('/dts/devices', { apiClient: testApiClient(api.fetch) });
  // The first test of the file also loads the page's lazy chunk: on a busy machine that is past findBy's 1 s.
  await screen.findByRole('heading', { level: 1, name: 'Devices' }, { timeout: 10_000 });
  await screen.findAllByRole('table');
  return { ...app, api };
};

const names = () => within(screen.getAllByRole('table')[0] as HTMLElement).queryAllByRole('link').map((a) => a.textContent);

describe('/dts/devices (operator §2 device list)', () => {
  it('shows the ten columns, the live values and N/A for a device with no farm', async () => {
    await open([row('vm-a'), row('vm-b', { fonterra_id: null, farm_name: null })]);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/ [▲▼]$/, ''))).toEqual([
      'Name', 'Farm ID', 'Last Seen', 'Milk Level', 'Vat Temp', 'Inlet Temp', 'Vibration', 'Particle OS', 'State Machine', 'Active/Inactive',
    ]);
    const first = screen.getAllByRole('row')[1] as HTMLElement;
    expect(within(first).getByText('31245 / Vat 1')).toBeDefined();
    expect(within(first).getByText('900 mm')).toBeDefined();
    expect(within(first).getByText('4.2 °C')).toBeDefined();
    expect(within(first).getByText('420 rpm')).toBeDefined();
    expect(screen.getByText('N/A')).toBeDefined();
  });

  it("finds stopped devices with the keyword 'down' and sorts by a header click", async () => {
    const { user } = await open([row('vm-a'), row('vm-c', { last_updated: { published_at: '2026-01-01T00:00:00.000Z', milk_level: 10 } }), row('vm-b')]);
    expect(names()).toEqual(['vm-a', 'vm-b', 'vm-c']);
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['vm-c', 'vm-b', 'vm-a']);
    await user.type(screen.getByRole('searchbox', { name: 'Search devices' }), 'down');
    expect(names()).toEqual(['vm-c']);
  });

  it('toggles a device inactive with DEVICE_EDIT and switches to the inactive list', async () => {
    const { user, api } = await open([row('vm-a')], [row('vm-z', { status: 2, retired_messages: 3 })]);
    await user.click(screen.getByRole('switch', { name: 'vm-a active' }));
    await waitFor(() => expect(api.callsOf('DEVICE_EDIT')).toHaveLength(1));
    expect(Object.fromEntries(api.callsOf('DEVICE_EDIT')[0]?.fields ?? [])).toMatchObject({ device_id: 'dev-vm-a', status: '2' });
    await user.click(screen.getByRole('button', { name: 'Inactive' }));
    await waitFor(() => expect(names()).toEqual(['vm-z']));
    expect(screen.getByText('receiving data while retired')).toBeDefined();
  });

  it('shows a national fleet 50 rows at a time, searched and sorted whole, back to page 1 on a new search', async () => {
    const fleet = Array.from({ length: 60 }, (_, i) => row(`vm-${String(i).padStart(3, '0')}`));
    const { user } = await open(fleet);
    const pager = () => screen.getByRole('navigation', { name: 'Devices pages' });
    expect(names()).toEqual(fleet.slice(0, 50).map((d) => d.name));
    expect(within(pager()).getByText('Page 1 of 2')).toBeDefined();
    await user.click(within(pager()).getByRole('button', { name: 'Next' }));
    expect(names()).toEqual(fleet.slice(50).map((d) => d.name));
    // Sorting orders the whole fleet, not the page, and shows its first page: the last device comes first.
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()[0]).toBe('vm-059');
    expect(within(pager()).getByText('Page 1 of 2')).toBeDefined();
    await user.click(within(pager()).getByRole('button', { name: 'Next' }));
    expect(names().at(-1)).toBe('vm-000');
    await user.type(screen.getByRole('searchbox', { name: 'Search devices' }), '05');
    expect(names()).toEqual(['vm-059', 'vm-058', 'vm-057', 'vm-056', 'vm-055', 'vm-054', 'vm-053', 'vm-052', 'vm-051', 'vm-050', 'vm-005']);
    expect(screen.queryByRole('navigation', { name: 'Devices pages' })).toBeNull();
  }, 60_000);

  it("loads names from the registry and says what it found", async () => {
    const { user, api } = await open([row('vm-a')]);
    await user.click(screen.getByRole('button', { name: 'Load name from Particle' }));
    await waitFor(() => expect(api.callsOf('DEVICE_LOAD_NAME')).toHaveLength(1));
    expect(await screen.findByText('Checked 1 devices: every name is current')).toBeDefined();
  });

  it('lists the changes under the table and pages to older ones with the cursor', async () => {
    const { api } = await open([row('vm-a')], [], (f) =>
      f.get('cursor') === 'c1'
        ? { entries: [entry('vm-b', 'Active', 'Inactive', '2026-11-01T00:00:00.000Z')] }
        : { entries: [entry('vm-a', 'Inactive', 'Active', '2026-11-02T00:00:00.000Z')], cursor: 'c1' },
    );
    const changes = await screen.findByRole('table', { name: 'Changes' });
    expect(within(changes).getByText('vm-a')).toBeTruthy();
    screen.getByRole('button', { name: 'Older changes' }).click();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Changes' })).queryByText('vm-b')).toBeTruthy());
    expect(Object.fromEntries(api.callsOf('DEVICE_AUDIT_LIST').at(-1)?.fields ?? [])).toMatchObject({ cursor: 'c1' });
    expect((screen.getByRole('button', { name: 'Older changes' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
