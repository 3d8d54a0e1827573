import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EquipmentData, VatLive } from '@shared/api/actions/farmer-equipment';
import { DASHBOARD_REFRESH_MS } from '@shared/constants';
import { itemsOf, type Plant } from '@shared/entities/equipment';
import { build } from '../../../testing/build';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withSelectedFarm } from '../../../testing/selected-farm';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm('farm-1');
afterEach(() => {
  vi.useRealTimers();
});

const live = (n: number, over: Partial<VatLive> = {}): VatLive => ({
  vat_number: n,
  vat_size: 10_000,
  published_at: '2026-03-10T11:58:00.000Z',
  temp1: 4.26,
  agitator_status: 1,
  milk_volume: 4_326,
  ...over,
});

const PRO: Plant = { preCooling: 1, vats: [{ id: 1, value: 1, sub_value: 1 }, { id: 2, value: 1, sub_value: 1 }] };

const open = (plant: Plant, data: EquipmentData | FakeHandler = { vat1: live(1), vat2: live(2) }) =>
  openFarmerScreen(
    '/dts/equipment',
    { EQUIPMENT_GET: () => itemsOf(plant), EQUIPMENT_DATA_GET: typeof data === 'function' ? data : () => data },
    { farms: [build.farm({ _id: 'farm-1' })], ready: 'Equipment' },
  );

const diagram = () => screen.findByRole('group', { name: 'Equipment diagram' });
const vat = async (n: number) => within(await diagram()).findByRole('group', { name: `Vat ${n}` });
const labelOf = (group: HTMLElement, label: 'temperature' | 'agitator' | 'volume' | 'kind' | 'fridges') => group.querySelector(`[data-label="${label}"]`)?.textContent;
const fridges = (group: HTMLElement) => within(group).queryAllByRole('img', { name: /^Fridge unit/ });

describe('/dts/equipment diagram (farmer §2.13)', () => {
  it('asks EQUIPMENT_GET and EQUIPMENT_DATA_GET for the selected farm and draws an SVG of the plant, not an image', async () => {
    const { api } = await open(PRO);
    const svg = await diagram();
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.querySelector('image, foreignObject')).toBeNull();
    expect(api.callsOf('EQUIPMENT_GET')[0]?.path).toBe('/api/farmer/equipment');
    expect(api.callsOf('EQUIPMENT_GET')[0]?.fields.get('farm')).toBe('farm-1');
    expect(api.callsOf('EQUIPMENT_DATA_GET')[0]?.fields.get('farm')).toBe('farm-1');
    expect(within(svg).getByText('Milk line')).toBeInTheDocument();
    expect(within(svg).getByRole('group', { name: 'Pre-cooling: Chilling' })).toBeInTheDocument();
    expect(within(svg).getByRole('img', { name: 'Plate chiller' })).toBeInTheDocument();
    expect(svg.querySelector('desc')?.textContent).toBe('Pre-cooling: Chilling. Vat 1: Vat, Fridge1. Vat 2: Vat, Fridge1.');
  });

  it("labels each vat with its live temperature (1 decimal), agitator and volume of the vat's size (10 L)", async () => {
    await open(PRO, { vat1: live(1), vat2: live(2, { temp1: 11.04, agitator_status: 0, milk_volume: 12_004, vat_size: 14_000 }) });
    const one = await vat(1);
    await waitFor(() => expect(labelOf(one, 'temperature')).toBe('4.3 °C'));
    expect(labelOf(one, 'agitator')).toBe('Agitator: Running');
    expect(labelOf(one, 'volume')).toBe('4,330 / 10,000 L');
    const two = await vat(2);
    expect(labelOf(two, 'temperature')).toBe('11.0 °C');
    expect(labelOf(two, 'agitator')).toBe('Agitator: Stopped');
    expect(labelOf(two, 'volume')).toBe('12,000 / 14,000 L');
    // The milk is drawn to the volume: vat 2 (86%) fuller than vat 1 (43%).
    const milk = (g: HTMLElement) => Number(g.querySelector('.equipment-diagram__milk')?.getAttribute('height'));
    expect(milk(two)).toBeGreaterThan(milk(one));
  });

  it('draws an ice bank, a Vat with sidewall and one fridge unit per sub-value (Fridge2: two)', async () => {
    await open({ preCooling: 2, vats: [{ id: 1, value: 1, sub_value: 1 }, { id: 2, value: 2, sub_value: 2 }] });
    const svg = await diagram();
    expect(within(svg).getByRole('group', { name: 'Pre-cooling: Ice Bank' })).toBeInTheDocument();
    expect(within(svg).getByRole('img', { name: 'Ice bank feeding a plate chiller' })).toBeInTheDocument();
    const one = await vat(1);
    const two = await vat(2);
    expect(within(one).getByRole('img', { name: 'Vat' })).toBeInTheDocument();
    expect(within(two).getByRole('img', { name: 'Vat with sidewall' })).toBeInTheDocument();
    expect(two.querySelectorAll('.equipment-diagram__cooling--wall')).toHaveLength(2);
    expect(one.querySelectorAll('.equipment-diagram__cooling--wall')).toHaveLength(0);
    expect(fridges(one).map((f) => f.getAttribute('aria-label'))).toEqual(['Fridge unit 1 of Vat 1']);
    expect(fridges(two).map((f) => f.getAttribute('aria-label'))).toEqual(['Fridge unit 1 of Vat 2', 'Fridge unit 2 of Vat 2']);
    expect([labelOf(two, 'kind'), labelOf(two, 'fridges')]).toEqual(['Vat with sidewall', 'Fridge2']);
    expect([labelOf(one, 'kind'), labelOf(one, 'fridges')]).toEqual(['Vat', 'Fridge1']);
  });

  it('with no pre-cooling the milk line runs straight: no plate, the word None', async () => {
    await open({ preCooling: 0, vats: [{ id: 1, value: 1, sub_value: 1 }] }, { vat1: live(1), vat2: null });
    const svg = await diagram();
    const pre = within(svg).getByRole('group', { name: 'Pre-cooling: None' });
    expect(within(pre).getByText('None')).toBeInTheDocument();
    expect(svg.querySelector('.equipment-diagram__plate')).toBeNull();
    expect(within(svg).queryByRole('group', { name: 'Vat 2' })).not.toBeInTheDocument();
  });

  it('shows every vat of the farm (vat3 and vat4 too), two to a row on a phone and four on a wide screen', async () => {
    const four: Plant = { preCooling: 2, vats: [1, 2, 3, 4].map((id) => ({ id, value: 1 as const, sub_value: 1 })) };
    const data = { vat1: live(1), vat2: live(2), vat3: live(3, { temp1: 2.5 }), vat4: live(4, { temp1: 7.25 }) };
    const wide = await open(four, data);
    expect(labelOf(await vat(4), 'temperature')).toBe('7.3 °C');
    expect((await diagram()).getAttribute('viewBox')).toBe('0 0 636 321');
    wide.unmount();

    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(max-width: 719px)', media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() }));
    await open(four, data);
    expect(labelOf(await vat(3), 'temperature')).toBe('2.5 °C');
    // Two rows of two: narrower than it is tall, scaled to the screen's width by CSS.
    const [, , width, height] = ((await diagram()).getAttribute('viewBox') ?? '').split(' ').map(Number);
    expect(width).toBe(336);
    expect(height).toBeGreaterThan(width ?? 0);
  });

  it('says so for a vat with no reading yet', async () => {
    await open(PRO, { vat1: live(1), vat2: live(2, { published_at: null, temp1: null, agitator_status: null, milk_volume: null }) });
    const two = await vat(2);
    await waitFor(() => expect(labelOf(two, 'agitator')).toBe('No reading yet'));
    expect(labelOf(two, 'temperature')).toBe('–');
    expect(labelOf(two, 'volume')).toBe('– / 10,000 L');
  });

  it('refreshes the live labels every 120 s like the dashboard, without reloading the plant', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    let temp1 = 4.26;
    const { api } = await open(PRO, () => ({ vat1: live(1, { temp1 }), vat2: live(2) }));
    const one = await vat(1);
    await waitFor(() => expect(labelOf(one, 'temperature')).toBe('4.3 °C'));
    temp1 = 9.81;
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS - 1_000));
    expect(labelOf(one, 'temperature')).toBe('4.3 °C');
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(labelOf(one, 'temperature')).toBe('9.8 °C'));
    expect(api.callsOf('EQUIPMENT_DATA_GET')).toHaveLength(2);
    expect(api.callsOf('EQUIPMENT_GET')).toHaveLength(1);
  });

  it('has a settings button to the builder', async () => {
    const { user, router } = await open(PRO);
    await user.click(screen.getByRole('link', { name: 'Equipment settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/equipment/builder'));
  });
});
