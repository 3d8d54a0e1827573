import { screen } from '@testing-library/react';
import type { Scale } from 'chart.js';
import { describe, expect, it, vi } from 'vitest';
import { build } from '../../../testing/build';
import { chartOn } from '../../../testing/charts';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { formatChartTime, formatTick } from '../../../lib/time-format';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const ZONE = 'Pacific/Chatham';
const HOUR = 3_600_000;

describe('/dts/device/{device_id} (operator §2 device series)', () => {
  it("shows the series' axis and tooltip times on the farm's clock, as the page's last reading", async () => {
    const to = Date.now();
    const at = (h: number) => new Date(to - h * HOUR).toISOString();
    const { last_updated: _, farm_name: _n, retired_messages: _r, ...row } = build.deviceRow('vm-a', { timezone: ZONE });
    const device = { ...row, package: 'Vat-Man Pro' };
    const api = fakeApi({
      USER_ONE_GET_BY_TOKEN: () => ({ user: build.user({ role: 'Admin' }), listFarm: [], organization: null }),
      DEVICE_ONE: () => ({ device, data: { published_at: at(0), milk_level: 900, temp1: 4.2 } }),
      DEVICE_ONE_SERIES: () => ({
        from: at(24),
        to: at(0),
        points: 2,
        vat: [
          { published_at: at(2), milk_level: 800, temp1: 4, shaft_rpm: 100 },
          { published_at: at(1), milk_level: 900, temp1: 4.2, shaft_rpm: 100 },
        ],
        cooler: [],
        agitatorData: { listStop: [] },
      }),
    });
    renderApp('/dts/device/dev-vm-a', { apiClient: testApiClient(api.fetch) });
    const chart = await chartOn(await screen.findByRole('img', { name: 'Milk Level (mm)' }));
    const x = to - 5 * HOUR;
    const tick = chart.options.scales?.x?.ticks?.callback as (this: Scale, v: number) => string;
    expect(tick.call(chart.scales.x as Scale, x)).toBe(formatTick(x, ZONE));
    const title = chart.options.plugins?.tooltip?.callbacks?.title as unknown as (items: { parsed: { x: number; y: number } }[]) => string;
    expect(title([{ parsed: { x, y: 800 } }])).toBe(formatChartTime(x, ZONE));
  });

  it("operator §9 gauges: the level ring's maximum is vat_max_height/10 (cm, our heights being mm), the reading in mm", async () => {
    const { last_updated: _, farm_name: _n, retired_messages: _r, ...row } = build.deviceRow('vm-a', { timezone: ZONE });
    const device = { ...row, vat_max_height: 2438, package: 'Vat-Man Pro' };
    const api = fakeApi({
      USER_ONE_GET_BY_TOKEN: () => ({ user: build.user({ role: 'Admin' }), listFarm: [], organization: null }),
      DEVICE_ONE: () => ({ device, data: { published_at: new Date().toISOString(), milk_level: 1219, temp1: 4.2 } }),
      DEVICE_ONE_SERIES: () => ({ from: new Date(Date.now() - 24 * HOUR).toISOString(), to: new Date().toISOString(), points: 0, vat: [], cooler: [], agitatorData: { listStop: [] } }),
    });
    renderApp('/dts/device/dev-vm-a', { apiClient: testApiClient(api.fetch) });
    const level = await screen.findByRole('meter', { name: 'Milk Level (mm)' });
    expect(level).toHaveTextContent('1219 mm');
    expect(level).toHaveTextContent('243.8 cm');
    expect(level).toHaveAttribute('aria-valuemax', '2438');
    // Half the vat: the ring's arc ends at the top of the half ring.
    expect(level.querySelector('.gauge__value')?.getAttribute('d')).toMatch(/ 100\.00 20\.00$/);
  });
});
