import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Chart as ChartJS } from 'chart.js';
import { chartOn, expectMilkingMarkers, SEVEN_TEMPERATURES_VAT_SHOWN } from '../../../testing/charts';
import { withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { item, NOW, openDashboard } from '../testing/dashboard-charts';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();
withNow(NOW);

describe('milk dashboard charts (farmer §2.5, §2.17)', () => {
  it('draws a temperature and a volume chart per vat, titled Vat {n}, for the last 2 days (page 1)', async () => {
    const { api } = await openDashboard('Vat-Man Lite');
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(within(vat1).getByRole('heading', { level: 2, name: 'Vat 1' })).toBeInTheDocument();
    expect(within(vat1).getByRole('img', { name: 'Vat 1 temperatures' }).tagName).toBe('CANVAS');
    expect(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }).tagName).toBe('CANVAS');
    expect(within(vat1).getByRole('img', { name: 'Vat 1 stirrer' }).tagName).toBe('CANVAS');
    expect(screen.getByRole('region', { name: 'Vat 2 charts' })).toBeInTheDocument();
    const call = api.callsOf('FARMER_DASHBOARD_LAST_ALL')[0];
    expect(call?.fields.get('farm')).toBe('farm-1');
    expect(call?.fields.get('page_index')).toBe('1');
    // The charts draw from the columnar form (decision 111).
    expect(call?.fields.get('form')).toBe('columns');
    expect(call?.fields.has('startDate')).toBe(false);
  });

  it('shades agitator stops on the volume chart and battery-off on both; temperature has the seven §9 temperatures (all but Vat hidden) and the 6 and 10 °C lines', async () => {
    await openDashboard('Vat-Man Lite', () => [
      { ...item(1, 'Vat-Man Lite'), batteryData: [{ published_at: '2026-03-10T09:00:00Z', raw: { status: '2' } }, { published_at: '2026-03-10T09:30:00Z', raw: { status: '3' } }] },
    ]);
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    const volume = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }));
    const temperature = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 temperatures' }));
    const bandCounts = (chart: typeof volume) => chart?.options.plugins?.bands?.shaded?.map((s) => s?.bands?.length);
    expect(bandCounts(volume)).toEqual([1, 0, 1]);
    expect(bandCounts(temperature)).toEqual([0, 1]);
    expect(volume?.data.datasets.map((d) => d.label)).toEqual(['Milk Volume']);
    expect(temperature?.data.datasets.map((d) => [d.label, d.hidden])).toEqual([
      ...SEVEN_TEMPERATURES_VAT_SHOWN,
      ['10 °C', false],
      ['6 °C', false],
    ]);
  });

  it('draws each of the eight series from its field (Milk In and Water In from the cooler data) and marks milking start and end on every chart of the vat', async () => {
    await openDashboard('Vat-Man Lite', () => [
      {
        ...item(1, 'Vat-Man Lite'),
        detailData: [{ published_at: '2026-03-10T10:00:00Z', milk_volume: 1000, temp1: 4, temp2: 30, temp3: 12, temp4: 18, temp5: 60, agitator_status: 1 }],
        coolerData: [{ published_at: '2026-03-10T10:00:00Z', milk_in: 33, water_in: 14 }],
        // eom counts as milking (§4): one milking from 09:00 to 09:50.
        phyStateData: [
          { start: '2026-03-10T08:00:00Z', end: '2026-03-10T09:00:00Z', phystate: 'storage' },
          { start: '2026-03-10T09:00:00Z', end: '2026-03-10T09:40:00Z', phystate: 'milking' },
          { start: '2026-03-10T09:40:00Z', end: '2026-03-10T09:50:00Z', phystate: 'eom' },
          { start: '2026-03-10T09:50:00Z', end: '2026-03-10T11:00:00Z', phystate: 'storage' },
        ],
      },
    ]);
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    const t = Date.parse('2026-03-10T10:00:00Z');
    const volume = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }));
    const temperature = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 temperatures' }));
    const stirrer = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 stirrer' }));
    const values = (chart: typeof volume) => Object.fromEntries(chart.data.datasets.filter((d) => !(d as { reference?: boolean }).reference).map((d) => [d.label, d.data]));
    expect({ ...values(volume), ...values(temperature) }).toEqual({
      'Milk Volume': [{ x: t, y: 1000 }],
      Vat: [{ x: t, y: 4 }],
      Inlet: [{ x: t, y: 30 }],
      Plate: [{ x: t, y: 12 }],
      Ambient: [{ x: t, y: 18 }],
      CIP: [{ x: t, y: 60 }],
      'Milk In': [{ x: t, y: 33 }],
      'Water In': [{ x: t, y: 14 }],
    });
    expectMilkingMarkers([volume, temperature, stirrer], '2026-03-10T09:00:00Z', '2026-03-10T09:50:00Z');
  });

  it("tooltips read the farm's clock in §9's chart format and litres to the nearest 10 L", async () => {
    await openDashboard('Vat-Man Lite', () => [{ ...item(1, 'Vat-Man Lite'), detailData: [{ published_at: '2026-03-10T10:00:00Z', milk_volume: 1234, temp1: 4.26 }] }]);
    const vat1 = await screen.findByRole('region', { name: 'Vat 1 charts' });
    const volume = await chartOn(within(vat1).getByRole('img', { name: 'Vat 1 milk volume' }));
    const callbacks = volume.options.plugins?.tooltip?.callbacks as unknown as {
      title: (items: unknown[]) => string;
      label: (item: unknown) => string;
    };
    const point = { parsed: { x: Date.parse('2026-03-10T10:00:00Z'), y: 1234 }, dataset: { label: 'Milk Volume' } };
    // 10:00 UTC is 23:00 NZDT in Auckland; the tests' browser is in UTC, so the zone is named.
    expect(callbacks.title([point])).toBe('Tue, 10th March 23:00 NZDT');
    expect(callbacks.label(point)).toBe('Milk Volume: 1,230 L');
  });

  it('zooming one chart applies its x range to every chart; Reset zoom zooms every chart out', async () => {
    const { user } = await openDashboard('Vat-Man Lite');
    await screen.findByRole('region', { name: 'Vat 2 charts' });
    const chartOf = (name: string) => ChartJS.getChart(screen.getByRole('img', { name }) as HTMLCanvasElement);
    const zoomed = await chartOn(screen.getByRole('img', { name: 'Vat 1 temperatures' }));
    const min = Date.parse('2026-03-10T09:00:00Z');
    const max = Date.parse('2026-03-10T11:00:00Z');
    const onZoomComplete = zoomed?.options.plugins?.zoom?.zoom?.onZoomComplete;
    expect(onZoomComplete).toBeTypeOf('function');
    act(() => onZoomComplete?.({ chart: { scales: { x: { min, max } } } as never }));
    await waitFor(() => expect(chartOf('Vat 2 milk volume')?.options.scales?.['x']).toMatchObject({ min, max }));
    expect(chartOf('Vat 1 milk volume')?.options.scales?.['x']).toMatchObject({ min, max });
    await user.click(screen.getByRole('button', { name: 'Reset zoom' }));
    await waitFor(() => expect(chartOf('Vat 2 milk volume')?.options.scales?.['x']).toMatchObject({ min: Date.parse('2026-03-08T12:00:00.000Z') }));
    expect(screen.queryByRole('button', { name: 'Reset zoom' })).not.toBeInTheDocument();
  });
});

describe("the charts' clock", () => {
  it("says the axes and the picker are the farm's clock, named, when the browser's zone reads another time (the tests run in UTC)", async () => {
    await openDashboard('Vat-Man Pro');
    await screen.findByRole('region', { name: 'Vat 1 charts' });
    expect(screen.getByText(/^Times are the farm's \(NZ[DS]T\)\.$/)).toBeInTheDocument();
  });
});
