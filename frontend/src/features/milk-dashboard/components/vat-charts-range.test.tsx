import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Chart as ChartJS } from 'chart.js';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import { chartOn } from '../../../testing/charts';
import { withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { isLiveRange, type VatLastAll } from '../api/dashboard-last-all';
import { item, NOW, openDashboard } from '../testing/dashboard-charts';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();
withNow(NOW);

describe('milk dashboard chart ranges: refresh, pages and picked days (farmer §2.5, §2.17)', () => {
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

describe('isLiveRange: the ranges that refresh every 120 s', () => {
  it('page 1 and picked days up to today; older pages and days do not change', () => {
    const today = '2026-03-11';
    expect(isLiveRange({ kind: 'page', page: 1 }, today)).toBe(true);
    expect(isLiveRange({ kind: 'page', page: 2 }, today)).toBe(false);
    expect(isLiveRange({ kind: 'dates', startDate: '2026-03-10', endDate: '2026-03-11' }, today)).toBe(true);
    expect(isLiveRange({ kind: 'dates', startDate: '2026-03-01', endDate: '2026-03-10' }, today)).toBe(false);
  });
});
