import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../../../testing/build';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withSelectedFarm } from '../../../testing/selected-farm';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm('farm-1');

const open = ({ fonterra_id = 'OCD40721', addPickup = () => 'success' }: { fonterra_id?: string; addPickup?: FakeHandler } = {}) =>
  openFarmerScreen('/dts/pickup', { ADD_PICKUP: addPickup }, { farms: [build.farm({ _id: 'farm-1', fonterra_id })], ready: 'Submit Pickup' });

describe('/dts/pickup (farmer §2.14, §5)', () => {
  it('has Vat (default 1), Pickup Time, Volume (L) and Temperature (C)', async () => {
    await open();
    expect(screen.getByLabelText('Vat')).toHaveValue(1);
    expect(screen.getByLabelText('Pickup Time')).toHaveAttribute('type', 'datetime-local');
    expect(screen.getByLabelText('Volume (L)')).toHaveValue(null);
    expect(screen.getByLabelText('Temperature (C)')).toHaveValue(null);
  });

  it('flags Pickup Time and Volume when empty and makes no call', async () => {
    const { user, api } = await open();
    await user.click(screen.getByRole('button', { name: 'Submit Pickup' }));
    expect(screen.getByLabelText('Pickup Time')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Volume (L)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Pickup Time is required')).toBeInTheDocument();
    expect(screen.getByText('Volume is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Temperature (C)')).not.toHaveAttribute('aria-invalid');
    expect(api.callsOf('ADD_PICKUP')).toHaveLength(0);
  });

  it("Pickup Time is the farm's clock, named when the browser's zone is another (the tests run in UTC, the farm in Auckland)", async () => {
    await open();
    expect(screen.getByLabelText('Pickup Time')).toHaveAccessibleDescription(/^The farm's time \(NZ[DS]T\)$/);
  });

  it('accepts only values >= 0 for Vat, Volume and Temperature', async () => {
    const { user, api } = await open();
    await user.type(screen.getByLabelText('Pickup Time'), '2026-03-09T07:30');
    await user.type(screen.getByLabelText('Volume (L)'), '-5');
    await user.type(screen.getByLabelText('Temperature (C)'), '-1');
    await user.clear(screen.getByLabelText('Vat'));
    await user.type(screen.getByLabelText('Vat'), '-2');
    await user.click(screen.getByRole('button', { name: 'Submit Pickup' }));
    expect(screen.getByText('Volume must be 0 or more')).toBeInTheDocument();
    expect(screen.getByText('Temperature must be 0 or more')).toBeInTheDocument();
    expect(screen.getByText('Vat must be 0 or more')).toBeInTheDocument();
    expect(api.callsOf('ADD_PICKUP')).toHaveLength(0);
  });

  it('sends farm_id, vat, the time as UTC YYYY-MM-DD HH:mm:ss, volume and temperature; shows Pickup Submitted and clears the fields', async () => {
    const { user, api } = await open();
    await user.clear(screen.getByLabelText('Vat'));
    await user.type(screen.getByLabelText('Vat'), '2');
    await user.type(screen.getByLabelText('Pickup Time'), '2026-03-09T07:30');
    await user.type(screen.getByLabelText('Volume (L)'), '8450');
    await user.type(screen.getByLabelText('Temperature (C)'), '3.8');
    await user.click(screen.getByRole('button', { name: 'Submit Pickup' }));

    const dialog = await screen.findByRole('dialog', { name: 'Pickup Submitted' });
    const call = api.callsOf('ADD_PICKUP')[0];
    expect(call?.path).toBe('/api/farmer/activity');
    expect(Object.fromEntries(call?.fields ?? [])).toEqual({
      type: 'ADD_PICKUP',
      farm_id: 'farm-1',
      vat: '2',
      // The field is the farm's clock (Pacific/Auckland, NZDT in March), whatever the browser's zone.
      datetime: '2026-03-08 18:30:00',
      volume: '8450',
      temperature: '3.8',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Pickup Time')).toHaveValue('');
    expect(screen.getByLabelText('Volume (L)')).toHaveValue(null);
    expect(screen.getByLabelText('Temperature (C)')).toHaveValue(null);
    expect(screen.getByLabelText('Vat')).toHaveValue(2);
  });

  it('leaves Temperature out when empty (optional) and shows a refusal in the snackbar, keeping the fields', async () => {
    const { user, api } = await open({ addPickup: () => ({ status: 422, body: { message: 'Pickup Time cannot be in the future.' } }) });
    await user.type(screen.getByLabelText('Pickup Time'), '2026-03-09T07:30');
    await user.type(screen.getByLabelText('Volume (L)'), '100');
    await user.click(screen.getByRole('button', { name: 'Submit Pickup' }));
    expect(await screen.findByText('Pickup Time cannot be in the future.')).toBeInTheDocument();
    expect(api.callsOf('ADD_PICKUP')[0]?.fields.get('temperature')).toBe('');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Volume (L)')).toHaveValue(100);
  });

  it('a dairy-company farm gets no form', async () => {
    await open({ fonterra_id: 'FON50412' });
    expect(screen.getByText(/not offered for dairy-company farms/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Pickup' })).not.toBeInTheDocument();
  });
});
