import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchAuthSession } from 'aws-amplify/auth';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MilkData } from '@shared/api/actions/milk-quality';
import type { Role } from '@shared/roles';
import { lineChartOptions } from '../../../components/charts/vat-line-chart';
import { build } from '../../../testing/build';
import { chartOn } from '../../../testing/charts';
import { formatWhen } from '../../../lib/time-format';
import { SHADE } from './milk-charts';
import { fakeApi, type FakeHandler } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { resetSignedOutAuth } from '../../../testing/signed-out-auth';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

beforeEach(resetSignedOutAuth);

const at = (h: number) => new Date(Date.UTC(2026, 2, 10, h)).toISOString();

const answer = (supply: string, vat: number): MilkData => ({
  farm: { _id: 'farm-auto', fonterra_id: supply, name: 'Rimu Valley', supplier: 'FON', timezone: 'Pacific/Auckland' },
  device: { _id: 'dev-2', name: 'vm-2', vat_number: vat, vat_size: 21_500, vat_auto: true, last_updated: null },
  range: { from: at(0), to: at(12), startDate: '2026-03-10', endDate: '2026-03-11', page_index: null },
  points: 3,
  detailData: [
    { published_at: at(1), milk_volume: 1000, temp1: 4, temp2: 15, agitator_status: 1, state_machine: 'storage', quality: { currentEstCFU: 4.1, pickupEstCFU: 4.4 } },
    { published_at: at(2), milk_volume: 1500, temp1: 3.5, temp2: 14, agitator_status: 0, state_machine: '=cmd()', quality: { currentEstCFU: 4.9 } },
    { published_at: at(3), milk_volume: 1600, temp1: 3.4, agitator_status: 1, state_machine: 'storage' },
  ],
  coolerData: [{ published_at: at(2), milk_in: 31, water_in: 12 }],
  phyStateData: [],
  batteryData: [
    { published_at: at(1), raw: { status: '0x0B' } },
    { published_at: at(2), raw: { status: '0x0A' } },
    { published_at: at(3), raw: { status: '0x0B' } },
  ],
  agitatorData: { listStop: [{ start: { published_at: at(2) }, end: { published_at: at(3) } }] },
  outageData: [{ start: { published_at: at(4) }, end: { published_at: at(6) } }],
  lastStorage: null,
  lastCollection: null,
  lastMilking: {
    _id: 'dev-2~milking~x',
    kind: 'milking',
    device_id: 'dev-2',
    activity: {
      start: { published_at: at(1), milk_volume: 0, temp1: 4, temp2: null, temp3: null },
      end: { published_at: at(2), milk_volume: 1500, temp1: 4, temp2: null, temp3: null },
    },
  },
  lastCIP: null,
});

const open = (path: string, role: Role, handlers: Record<string, FakeHandler>) => {
  const api = fakeApi({ USER_ONE_GET_BY_TOKEN: () => ({ user: build.user({ role }), listFarm: [], organization: null }), ...handlers });
  return { ...renderApp(path, { apiClient: testApiClient(api.fetch) }), api, user: userEvent.setup() };
};

const fill = async (user: ReturnType<typeof userEvent.setup>, values: Partial<Record<'Supply Number' | 'Vat Number' | 'From' | 'To', string>>) => {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
    await user.clear(input);
    if (value) await user.type(input, value);
  }
};

describe('Milk Quality view (operator §2, §5)', () => {
  it("marks every empty field 'Required Field' and asks for nothing", async () => {
    const { api, user } = open('/dts/fonterra/milkquality', 'Milk Quality', {});
    await screen.findByRole('form', { name: 'Milk quality data' });
    await fill(user, { 'Supply Number': '50412', From: '2026-03-10', To: '2026-03-11' });
    await user.click(screen.getByRole('button', { name: 'View' }));
    expect(screen.getByLabelText(/^Vat Number/, { selector: 'input' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Required Field')).toHaveLength(1);
    expect(screen.getByLabelText(/^Supply Number/, { selector: 'input' })).toHaveAttribute('aria-invalid', 'false');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(api.callsOf('MILK_QUALITY_DATA')).toHaveLength(0);
  });

  it('sends the 5-digit number with the FON prefix, shows the charts and last activities, and the toggles shade', async () => {
    const { api, user } = open('/dts/fonterra/milkquality', 'Milk Quality', { MILK_QUALITY_DATA: (f) => answer(f.get('supplyNumber') ?? '', Number(f.get('vatNumber'))) });
    await screen.findByRole('form', { name: 'Milk quality data' });
    await fill(user, { 'Supply Number': ' 50412 ', 'Vat Number': '2', From: '2026-03-10', To: '2026-03-11' });
    await user.click(screen.getByRole('button', { name: 'View' }));
    await waitFor(() => expect(api.callsOf('MILK_QUALITY_DATA')).toHaveLength(1));
    const fields = api.callsOf('MILK_QUALITY_DATA')[0]?.fields;
    expect(Object.fromEntries(fields ?? [])).toMatchObject({ supplyNumber: 'FON50412', vatNumber: '2', fromDate: '2026-03-10', toDate: '2026-03-11' });
    const volume = await screen.findByRole('img', { name: 'Milk Volume' });
    const temps = screen.getByRole('img', { name: 'Temperatures' });
    const quality = screen.getByRole('img', { name: 'Quality Estimates' });
    const tempChart = await chartOn(temps);
    expect(tempChart.data.datasets.map((d) => d.label)).toEqual(['Vat', 'Inlet', 'Plate', 'Ambient', 'CIP', 'Milk In', 'Water In']);
    const q = await chartOn(quality);
    expect(q.data.datasets.slice(0, 2).map((d) => [d.label, d.data.length])).toEqual([
      ['currentEstCFU', 2],
      ['pickupEstCFU', 1],
    ]);
    expect(within(screen.getByLabelText('Last activities')).getByText('10 Mar 2026 14:00 NZDT – 10 Mar 2026 15:00 NZDT')).toBeInTheDocument();
    // Off at first: no shading; each toggle adds its bands (the outage in the critical colour).
    // chart.js hands its options back as proxies: read them plainly, band by band.
    const shadedOf = async (canvas: HTMLElement) =>
      ((await chartOn(canvas)).options.plugins?.bands?.shaded ?? []).map((x) => ({ colour: x?.colour, bands: x?.bands?.map((b) => [b?.from, b?.to]) }));
    expect(await shadedOf(volume)).toEqual([]);
    await user.click(screen.getByRole('switch', { name: 'Agitator Stopped' }));
    await user.click(screen.getByRole('switch', { name: 'On Battery' }));
    await user.click(screen.getByRole('switch', { name: 'Data Outage' }));
    await waitFor(async () => expect((await shadedOf(volume)).length).toBe(3));
    expect(await shadedOf(volume)).toEqual([
      { colour: SHADE.agitator, bands: [[Date.parse(at(2)), Date.parse(at(3))]] },
      { colour: SHADE.battery, bands: [[Date.parse(at(2)), Date.parse(at(3))]] },
      { colour: SHADE.outage, bands: [[Date.parse(at(4)), Date.parse(at(6))]] },
    ]);
    expect((await shadedOf(temps)).length).toBe(3);
    await user.click(screen.getByRole('switch', { name: 'Agitator Stopped' }));
    await waitFor(async () => expect((await shadedOf(quality)).map((x) => x.colour)).toEqual([SHADE.battery, SHADE.outage]));
    // Litres from 0 (§2 'Milk Volume').
    expect(lineChartOptions({ unit: 'L', yTitle: 'Litres', from: 0, to: 1, shaded: [] }).scales?.['y']).toMatchObject({ min: 0 });
  });

  it("shows the server's reason for a refused supply number", async () => {
    const { user } = open('/dts/fonterra/milkquality', 'Milk Quality', { MILK_QUALITY_DATA: () => ({ status: 403, body: { message: 'OCD40721 is not a dairy-company supply number.' } }) });
    await screen.findByRole('form', { name: 'Milk quality data' });
    await fill(user, { 'Supply Number': 'ocd40721', 'Vat Number': '1', From: '2026-03-10', To: '2026-03-11' });
    await user.click(screen.getByRole('button', { name: 'View' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('OCD40721 is not a dairy-company supply number.');
    expect(screen.queryByRole('img', { name: 'Milk Volume' })).not.toBeInTheDocument();
  });
});

describe('Westlands view (operator §2)', () => {
  it('has a tab per Westlands farm that fills the supply number, and sends a 3-character number with WES', async () => {
    const { api, user } = open('/dts/westlands/data', 'Westlands', {
      WESTLANDS_FARMS: () => [
        { _id: 'farm-wes', fonterra_id: 'WES118' },
        { _id: 'farm-w2', fonterra_id: 'ZZ4411' },
      ],
      WESTLANDS_DATA: (f) => answer(f.get('supplyNumber') ?? '', Number(f.get('vatNumber'))),
    });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['WES118', 'true'],
      ['ZZ4411', 'false'],
    ]);
    expect(screen.getByLabelText(/^Supply Number/, { selector: 'input' })).toHaveValue('WES118');
    await user.click(tabs[1] as HTMLElement);
    expect(screen.getByLabelText(/^Supply Number/, { selector: 'input' })).toHaveValue('ZZ4411');
    await fill(user, { 'Supply Number': '118', 'Vat Number': '1', From: '2026-03-10', To: '2026-03-10' });
    await user.click(screen.getByRole('button', { name: 'View' }));
    await waitFor(() => expect(api.callsOf('WESTLANDS_DATA')[0]?.fields.get('supplyNumber')).toBe('WES118'));
    await screen.findByRole('img', { name: 'Milk Volume' });
  });
});

describe('lookups log (every lookup visible to Admins)', () => {
  it('is offered to an Admin and lists who looked at which farm when opened', async () => {
    vi.mocked(fetchAuthSession).mockResolvedValue({ tokens: { accessToken: { payload: { 'cognito:groups': ['Admin'], 'vatman:totp': '1700000000', auth_time: 1700000000 }, toString: () => 'token' } } } as never);
    const { api, user } = open('/dts/fonterra/milkquality', 'Admin', {
      MILK_DATA_LOOKUPS: () => [
        { at: at(1), user_id: 'u1', username: 'u1', email: 'westlands@vatman.local', view: 'westlands', farm_id: 'farm-wes', fonterra_id: 'WES118', vat_number: 2, fromDate: '2026-03-04', toDate: '2026-03-10' },
      ],
    });
    const summary = await screen.findByText('Lookups log');
    expect(api.callsOf('MILK_DATA_LOOKUPS')).toHaveLength(0);
    await user.click(summary);
    const row = await screen.findByRole('row', { name: /westlands@vatman\.local/ });
    // The Admin's own local time, as the browser shows it.
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual([formatWhen(at(1), undefined), 'westlands@vatman.local', 'Westlands', 'WES118', '2', '2026-03-04', '2026-03-10']);
  });

  it('is not offered to Milk Quality staff', async () => {
    open('/dts/fonterra/milkquality', 'Milk Quality', {});
    await screen.findByRole('form', { name: 'Milk quality data' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Lookups log')).not.toBeInTheDocument();
  });
});
