import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AdminFarm } from '@shared/api/actions/admin-farm';
import { build } from '../../../testing/build';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const farm = (over: Partial<AdminFarm> = {}): AdminFarm => ({
  _id: 'farm-pro',
  fonterra_id: '31245',
  name: 'Totara Downs',
  supplier: 'FON',
  devices: [{ _id: 'dev-1', name: 'vm-31245-1', vat_number: 1, status: 1 }],
  auto_check: true,
  fonterra_api_status: true,
  harvest: false,
  package: 'Vat-Man Pro',
  install_packege: 'Vat-Man Pro',
  install_numVats: 1,
  install_date: '2025-11-18',
  ...over,
});

describe('/dts/farms (operator §2 admin farms)', () => {
  it("shows a card's install date as the §9 date 'DD MMM YYYY'", async () => {
    const api = fakeApi({
      USER_ONE_GET_BY_TOKEN: () => ({ user: build.user({ role: 'Admin' }), listFarm: [], organization: null }),
      FARM_LIST: () => ({ listFarm: [farm(), farm({ _id: 'farm-lite', fonterra_id: 'OCD40721', install_date: null })], listDevice: [], flags_editable: false }),
      FARMS_SETTINGS_GET: () => [],
      FARM_AUDIT_LIST: () => [],
      FARM_DELIVERY_DEAD_LETTERS: () => [],
    });
    renderApp('/dts/farms', { apiClient: testApiClient(api.fetch) });
    const card = (await screen.findByRole('heading', { name: '31245' })).closest('li') as HTMLElement;
    expect(within(card).getByText('Install date').nextElementSibling?.textContent).toBe('18 Nov 2025');
    const none = screen.getByRole('heading', { name: 'OCD40721' }).closest('li') as HTMLElement;
    expect(within(none).getByText('Install date').nextElementSibling?.textContent).toBe('–');
  });

  it('operator A18: sends every filter, each blank for all, and a chosen package and finance package as chosen', async () => {
    const api = fakeApi({
      USER_ONE_GET_BY_TOKEN: () => ({ user: build.user({ role: 'Admin' }), listFarm: [], organization: null }),
      FARM_LIST: () => ({ listFarm: [farm()], listDevice: [], flags_editable: false }),
      FARMS_SETTINGS_GET: () => [],
      FARM_AUDIT_LIST: () => [],
      FARM_DELIVERY_DEAD_LETTERS: () => [],
    });
    renderApp('/dts/farms', { apiClient: testApiClient(api.fetch) });
    await screen.findByRole('heading', { name: '31245' });
    const sent = (nth: number) => Object.fromEntries(['dairy_current', 'farm_type', 'farm_id', 'farm_finance'].map((f) => [f, api.callsOf('FARM_LIST')[nth]?.fields.get(f)]));
    expect(sent(0)).toEqual({ dairy_current: '', farm_type: '', farm_id: '', farm_finance: '' });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Package'), 'Vat-Man Pro');
    await user.selectOptions(screen.getByLabelText('Finance package'), 'Non-independent accounting');
    await waitFor(() => expect(sent(api.callsOf('FARM_LIST').length - 1)).toEqual({ dairy_current: '', farm_type: 'Vat-Man Pro', farm_id: '', farm_finance: 'Non-independent accounting' }));
    expect(screen.getByLabelText('Package')).toHaveDisplayValue('Vat-Man Pro');
  });
});
