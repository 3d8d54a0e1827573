import { act, screen, waitFor, within } from '@testing-library/react';
import type { ActiveElement, ChartEvent } from 'chart.js';
import { describe, expect, it, vi } from 'vitest';
import type { MilkingItem, MilkingList } from '../api/milking-list';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { chartOn } from '../../../testing/charts';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const NOW = Date.parse('2026-03-10T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

const milking = (vat: number, startHoursAgo: number, litres: number | null, endTemp = 9): MilkingItem => {
  const start = hoursAgo(startHoursAgo);
  return {
    _id: `dev-${vat}~milking~${start}`,
    kind: 'milking',
    device_id: `dev-${vat}`,
    activity: {
      start: { published_at: start, milk_volume: 0, temp1: 4, temp2: 17, temp3: 11 },
      end: litres === null ? null : { published_at: hoursAgo(startHoursAgo - 2), milk_volume: litres + 100, temp1: endTemp, temp2: 18, temp3: 12 },
    },
    config: { vat_size: 14_000, vat_number: vat },
    summary: { duration_min: litres === null ? null : 120, productivity_l: litres, speed_l_min: litres === null ? null : litres / 120 },
  };
};

const answer = (list: MilkingItem[], page = 1): MilkingList => ({
  range: { from: hoursAgo(30 * 24 * page), to: hoursAgo(30 * 24 * (page - 1)), startDate: page === 1 ? '2026-02-09' : '2026-01-10', endDate: page === 1 ? '2026-03-10' : '2026-02-08', page_index: page },
  list,
});

withSelectedFarm();
withNow(NOW);

const LIST = [milking(2, 12, 5000, 11), milking(1, 14, 6000), milking(1, 26, 5500), milking(1, 1, null)];

const openTab = (list: FakeHandler = () => answer(LIST)) =>
  openFarmerScreen('/dts/milking', { FARMER_MILKING_LIST: list, FARMER_MILKING_ONE: () => ({ status: 403, body: { message: 'Forbidden' } }) }, { ready: 'Milking' });

const chartOf = (name: string) => chartOn(screen.getByRole('img', { name }));

describe('/dts/milking (farmer §2.6, tab 1)', () => {
  it('asks FARMER_MILKING_LIST for the selected farm, page 1, and shows the days it covers', async () => {
    const { api } = await openTab();
    expect(await screen.findByText('09 Feb 2026 to 10 Mar 2026')).toBeInTheDocument();
    const call = api.callsOf('FARMER_MILKING_LIST')[0];
    expect(call?.path).toBe('/api/farmer/activity');
    expect([call?.fields.get('farm'), call?.fields.get('page_index')]).toEqual(['farm-1', '1']);
  });

  it('per vat, in vat order, a milking volume and a milking temperature chart with a point per milking', async () => {
    await openTab();
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 milkings' });
    expect(screen.getAllByRole('region', { name: /^Vat \d milkings$/ }).map((r) => r.getAttribute('aria-label'))).toEqual(['Vat 1 milkings', 'Vat 2 milkings']);
    within(vat1).getByRole('img', { name: 'Vat 1 milking volume' });
    const volume = await chartOf('Vat 1 milking volume');
    expect(volume?.data.datasets.map((d) => [d.label, (d.data as { y: number }[]).map((p) => p.y)])).toEqual([
      ['Milk Volume', [5600, 6100]],
      ['Milked', [5500, 6000]],
    ]);
    // Milkings are hours apart: each is a dot, not only a bend in a line.
    expect((volume?.data.datasets[0] as { pointRadius?: number }).pointRadius).toBe(3);
    const temps = await chartOf('Vat 2 milking temperatures');
    expect(temps?.data.datasets.map((d) => d.label)).toEqual(['Vat', 'Inlet', 'Plate', '10 °C', '6 °C']);
    expect((temps?.data.datasets[0]?.data as { y: number }[]).map((p) => p.y)).toEqual([11]);
  });

  it('the comparison scatter has a point per finished milking per vat; clicking one opens /dts/milking/{id}', async () => {
    const { router } = await openTab();
    await screen.findByRole('img', { name: 'Milking volume comparison' });
    const scatter = await chartOf('Milking volume comparison');
    expect(scatter?.data.datasets.map((d) => [d.label, (d.data as { y: number }[]).map((p) => p.y)])).toEqual([
      ['Vat 1', [5500, 6000]],
      ['Vat 2', [5000]],
    ]);
    const click = scatter?.options.onClick as (e: ChartEvent, els: ActiveElement[], c: unknown) => void;
    act(() => click({} as ChartEvent, [{ datasetIndex: 0, index: 1 } as ActiveElement], scatter));
    await waitFor(() => expect(decodeURIComponent(router.state.location.pathname)).toBe(`/dts/milking/${LIST[1]?._id ?? ''}`));
    expect(await screen.findByText('Milking not found')).toBeInTheDocument();
  });

  it('a click beside the points opens nothing', async () => {
    const { router } = await openTab();
    await screen.findByRole('img', { name: 'Milking volume comparison' });
    const click = (await chartOf('Milking volume comparison')).options.onClick as (e: ChartEvent, els: ActiveElement[], c: unknown) => void;
    act(() => click({} as ChartEvent, [], undefined));
    expect(router.state.location.pathname).toBe('/dts/milking');
  });

  it('Previous asks for the 30 days before; Next is disabled on page 1', async () => {
    const { user, api } = await openTab((fields) => answer(fields.get('page_index') === '2' ? [milking(1, 800, 4000)] : LIST, Number(fields.get('page_index'))));
    expect(await screen.findByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('10 Jan 2026 to 08 Feb 2026')).toBeInTheDocument();
    expect(api.callsOf('FARMER_MILKING_LIST').map((c) => c.fields.get('page_index'))).toEqual(['1', '2']);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'false');
  });

  it('no milkings says so', async () => {
    await openTab(() => answer([]));
    expect(await screen.findByText('No milkings in these 30 days.')).toBeInTheDocument();
  });

  it('shows the server’s message when the list is refused', async () => {
    await openTab(() => ({ status: 422, body: { message: 'No more data!' } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No more data!');
  });
});
