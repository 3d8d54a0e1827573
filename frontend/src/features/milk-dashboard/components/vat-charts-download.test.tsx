import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { NOW, openDashboard } from '../testing/dashboard-charts';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();
withNow(NOW);

describe('milk dashboard data.csv and the range\'s resolution (farmer §2.5, §2.17)', () => {
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
});
