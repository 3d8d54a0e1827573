import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { chartOn, expectMilkingMarkers, SEVEN_TEMPERATURES_VAT_SHOWN } from '../../../testing/charts';
import { withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { history, NOW, openDashboard } from '../testing/dashboard-charts';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();
withNow(NOW);

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
    expect(temperatures.data.datasets.map((d) => [d.label, d.hidden])).toEqual(SEVEN_TEMPERATURES_VAT_SHOWN);
    expect(temperatures.data.datasets.find((d) => d.label === 'Water In')?.data).toEqual([{ x: Date.parse('2026-03-09T10:00:00.000Z'), y: 13 }]);
    expectMilkingMarkers([volume, temperatures], '2026-03-09T09:00:00.000Z', '2026-03-09T10:00:00.000Z');
  });

  it('a phone skips the history call', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(max-width: 719px)', media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() }));
    const { api } = await openDashboard('Vat-Man Lite', undefined, () => [history(1)]);
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(api.callsOf('FARMER_STORAGE_HISTORY')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Milk storage history' })).not.toBeInTheDocument();
  });
});
