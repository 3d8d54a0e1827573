import { act, screen, waitFor, within } from '@testing-library/react';
import type { ActiveElement, ChartEvent } from 'chart.js';
import { describe, expect, it, vi } from 'vitest';
import { evaluateCoolingRules, type TempSample } from '@shared/compliance/cooling-rules';
import type { MilkingOne } from '../api/milking-one';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withNow, withSelectedFarm } from '../../../testing/selected-farm';
import { dateTime } from '../utils/milking-view';
import { chartOn } from '../../../testing/charts';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

/** The selected farm's zone (testing/build.ts); the tests run in UTC, so its name is shown. */
const FARM_ZONE = 'Pacific/Auckland';
const T0 = Date.parse('2026-03-10T04:00:00.000Z');
const at = (m: number) => new Date(T0 + m * 60_000).toISOString();
const ID = `dev-1~milking~${at(0)}`;

/** Two hours of milking warming the vat to 14 °C, then cooling 0.05 °C a minute: 8 °C at end + 2 h, so the 6 °C rule fails. */
const slow = (m: number) => (m <= 120 ? 4 + m / 12 : Math.max(4, 14 - (m - 120) * 0.05));
const readings = (until: number, temp: (m: number) => number, state: (m: number) => string = (m) => (m < 120 ? 'milking' : 'storage')) =>
  Array.from({ length: until / 5 + 1 }, (_, k) => ({ published_at: at(k * 5), temp1: temp(k * 5), temp2: 18, temp3: 12, milk_volume: Math.min(120, k * 5) * 50, state_machine: state(k * 5) }));

/** A FARMER_MILKING_ONE answer whose compliance is the shared evaluator's verdict on the same readings. */
const milkingOne = (temp: (m: number) => number, over: Partial<MilkingOne> = {}): MilkingOne => {
  const detailData = readings(360, temp);
  return {
    _id: ID,
    kind: 'milking',
    device_id: 'dev-1',
    activity: {
      start: { published_at: at(0), milk_volume: 0, temp1: 4, temp2: 18, temp3: 12 },
      end: { published_at: at(120), milk_volume: 6000, temp1: 14, temp2: 18, temp3: 12 },
    },
    config: { vat_size: 14_000, vat_number: 2 },
    summary: { duration_min: 120, productivity_l: 6004, speed_l_min: 50 },
    device: { _id: 'dev-1', name: 'vm-1', vat_number: 2, vat_size: 14_000, vat_auto: false, last_updated: null },
    herd: null,
    startCard: { published_at: at(0), plate: 12.04, inlet: 18.26, vat: 4, volume: 0 },
    stopCard: { published_at: at(120), plate: 12, inlet: 18, vat: 14, volume: 6004 },
    markers: { start: at(0), end: at(120), h4: at(240), h6: at(360) },
    detailData,
    compliance: evaluateCoolingRules({
      milking: { start: at(0), end: at(120) },
      readings: detailData as TempSample[],
      laterMilkings: [],
      collectionStart: null,
      now: at(600),
    }),
    ...over,
  };
};

withSelectedFarm();
withNow(Date.parse(at(600)));

const OTHER = `dev-1~milking~${at(-12 * 60)}`;
const brief = () => ({
  device: milkingOne(slow).device,
  list: [
    { _id: OTHER, start: at(-12 * 60), end: at(-10 * 60), volume: 5000, productivity_l: 5000, duration_min: 120 },
    { _id: ID, start: at(0), end: at(120), volume: 6004, productivity_l: 6004, duration_min: 120 },
    { _id: `dev-1~milking~${at(12 * 60)}`, start: at(12 * 60), end: null, volume: null, productivity_l: null, duration_min: null },
  ],
});

const openDetail = (answer: FakeHandler, id = ID, briefAnswer: FakeHandler = brief) =>
  openFarmerScreen(`/dts/milking/${encodeURIComponent(id)}`, { FARMER_MILKING_ONE: answer, FARMER_MILKING_LIST_BRIEF: briefAnswer }, { ready: 'Milking' });

const fact = (region: HTMLElement, label: string) => within(region).getByText(label).nextElementSibling?.textContent;
const ruleRows = () => within(screen.getByRole('region', { name: 'Raw milk cooling rules' })).getAllByRole('listitem');

describe('/dts/milking/{activity_id} (farmer §2.6)', () => {
  it('asks FARMER_MILKING_ONE for the id and shows the overall figures and the start and stop cards (§9 rounding)', async () => {
    const { api } = await openDetail(() => milkingOne(slow));
    const overall = await screen.findByRole('region', { name: 'Overall' });
    expect(api.callsOf('FARMER_MILKING_ONE')[0]?.fields.get('activity_id')).toBe(ID);
    expect(screen.getByText('Vat 2')).toBeInTheDocument();
    expect(fact(overall, 'Date')).toBe(dateTime(at(0), FARM_ZONE));
    expect(fact(overall, 'Date')).toBe('10 Mar 2026 17:00 NZDT');
    expect(fact(overall, 'Duration')).toBe('2 h 0 min');
    expect(fact(overall, 'Productivity')).toBe('6,000 L');
    expect(fact(overall, 'Speed')).toBe('50.0 L/min');
    const start = screen.getByRole('region', { name: 'Start' });
    expect([fact(start, 'Plate'), fact(start, 'Inlet'), fact(start, 'Vat'), fact(start, 'Volume')]).toEqual(['12.0 °C', '18.3 °C', '4.0 °C', '0 L']);
    const stop = screen.getByRole('region', { name: 'Stop' });
    expect([fact(stop, 'Time'), fact(stop, 'Vat'), fact(stop, 'Volume')]).toEqual([dateTime(at(120), FARM_ZONE), '14.0 °C', '6,000 L']);
  });

  it('shows each §9 rule with pass or fail and its time, as evaluated for this milking: slow cooling fails the 6 °C rule at end + 2 h', async () => {
    await openDetail(() => milkingOne(slow));
    await screen.findByRole('region', { name: 'Raw milk cooling rules' });
    const rows = ruleRows().map((li) => li.textContent);
    expect(rows[0]).toBe(`Cool to 10°C within four hours of milking startPassedMet at ${dateTime(at(200), FARM_ZONE)}`);
    expect(rows[1]).toBe(`Cool to 6°C within six hours of start or two hours after milking endsFailedFailed at ${dateTime(at(240), FARM_ZONE)}`);
    expect(rows[2]).toBe(`Then hold at or below 6°CFailedFailed at ${dateTime(at(240), FARM_ZONE)}`);
    expect(rows[3]).toBe('Not above 10°C during later milkingsPendingNot decided yet');
    expect(ruleRows()[1]).toHaveAttribute('data-status', 'failed');
  });

  it('a milking that cools in time passes the 10 and 6 °C rules with the times they were met; readings that stop leave the hold undecided', async () => {
    const good = (m: number) => (m <= 120 ? 4 + m / 12 : Math.max(4, 14 - (m - 120) * 0.1));
    await openDetail(() => milkingOne(good));
    await screen.findByRole('region', { name: 'Raw milk cooling rules' });
    // The readings end at +6 h while 'now' is +10 h: the hold (R3) cannot be judged, which is no pass.
    expect(ruleRows().map((li) => li.getAttribute('data-status'))).toEqual(['passed', 'passed', 'no_data', 'pending']);
    expect(ruleRows()[1]).toHaveTextContent(`PassedMet at ${dateTime(at(200), FARM_ZONE)}`);
    expect(ruleRows()[2]).toHaveTextContent('No dataReadings missing: it cannot be judged');
  });

  it('draws the cooling trend to the first empty reading, on 0-15 °C, with the 6 and 10 °C lines and the start, end, +4 h and +6 h markers', async () => {
    const emptied = readings(360, slow, (m) => (m < 120 ? 'milking' : m < 300 ? 'storage' : 'empty'));
    await openDetail(() => milkingOne(slow, { detailData: emptied }));
    const canvas = await screen.findByRole('img', { name: 'Vat 2 cooling trend' });
    const chart = await chartOn(canvas);
    expect(chart?.options.scales?.['y']).toMatchObject({ min: 0, max: 15 });
    expect(chart?.data.datasets.map((d) => [d.label, d.hidden])).toEqual([
      ['Vat', false],
      ['Inlet', true],
      ['Plate', true],
      ['10 °C', false],
      ['6 °C', false],
    ]);
    const vat = chart?.data.datasets[0]?.data as { x: number; y: number }[];
    expect(vat.at(-1)?.x).toBe(Date.parse(at(295)));
    const markers = chart?.options.plugins?.markers?.lines as readonly { label: string; at: number }[];
    expect(markers.map((m) => [m.label, new Date(m.at).toISOString()])).toEqual([
      ['Start', at(0)],
      ['End', at(120)],
      ['+4 h', at(240)],
      ['+6 h', at(360)],
    ]);
    // Tooltips: the local date and time, then the value with its unit (§2.17).
    const label = chart?.options.plugins?.tooltip?.callbacks?.label as unknown as (item: object) => string;
    expect(label({ dataset: { label: 'Vat' }, parsed: { x: Date.parse(at(60)), y: 9.04 } })).toBe('Vat: 9.0 °C');
  });

  it('an unknown or another farm’s milking (403) says it was not found, with no snackbar', async () => {
    await openDetail(() => ({ status: 403, body: { message: 'Forbidden' } }), 'dev-x~milking~2026-01-01T00:00:00.000Z');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Milking not found');
    expect(alert).toHaveTextContent('There is no such milking on your farms.');
    expect(screen.queryByRole('region', { name: 'Overall' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Milking' })).toHaveAttribute('href', '/dts/milking');
  });

  it('a milking still going on shows no stop card and the 6 °C rule pending', async () => {
    const detailData = readings(60, slow);
    const compliance = evaluateCoolingRules({ milking: { start: at(0), end: null }, readings: detailData as TempSample[], laterMilkings: [], collectionStart: null, now: at(60) });
    await openDetail(() =>
      milkingOne(slow, { activity: { start: milkingOne(slow).activity.start, end: null }, stopCard: null, markers: { start: at(0), end: null, h4: at(240), h6: at(360) }, detailData, compliance, summary: { duration_min: null, productivity_l: null, speed_l_min: null } }),
    );
    const stop = await screen.findByRole('region', { name: 'Stop' });
    expect(stop).toHaveTextContent('The milking has not ended yet.');
    expect(fact(screen.getByRole('region', { name: 'Overall' }), 'Duration')).toBe('In progress');
    await waitFor(() => expect(ruleRows()[0]).toHaveTextContent(`PendingDue by ${dateTime(at(240), FARM_ZONE)}`));
  });

  it('compares the milking with the vat’s others (FARMER_MILKING_LIST_BRIEF), this one apart; a click opens another', async () => {
    const { api, router } = await openDetail(() => milkingOne(slow));
    const canvas = await screen.findByRole('img', { name: 'Vat 2 milkings' });
    expect(api.callsOf('FARMER_MILKING_LIST_BRIEF')[0]?.fields.get('activity_id')).toBe(ID);
    const chart = await chartOn(canvas);
    expect(chart?.data.datasets.map((d) => [d.label, (d.data as { y: number }[]).map((p) => p.y)])).toEqual([
      ['Vat 2', [5000]],
      ['This milking', [6004]],
    ]);
    const click = chart?.options.onClick as (e: ChartEvent, els: ActiveElement[], c: unknown) => void;
    act(() => click({} as ChartEvent, [{ datasetIndex: 0, index: 0 } as ActiveElement], chart));
    await waitFor(() => expect(decodeURIComponent(router.state.location.pathname)).toBe(`/dts/milking/${OTHER}`));
    await waitFor(() => expect(api.callsOf('FARMER_MILKING_ONE').map((c) => c.fields.get('activity_id'))).toEqual([ID, OTHER]));
  });

  it('a comparison that cannot be loaded says so and leaves the rest of the page', async () => {
    await openDetail(() => milkingOne(slow), ID, () => ({ status: 500, body: { message: 'boom' } }));
    expect(await screen.findByText('The other milkings could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Raw milk cooling rules' })).toBeInTheDocument();
  });
});
