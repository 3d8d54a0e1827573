import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FakeHandler } from '../../../testing/fake-api';
import { renderWithFakeApi } from '../../../testing/render-app';
import { CheckInstallPage } from './check-install-page';

const renderPage = (handlers: Record<string, FakeHandler>) => renderWithFakeApi(<CheckInstallPage />, handlers);

const lines = () => screen.getByRole('list', { name: 'Check results' }).querySelectorAll('li');
const line = (text: string) => Array.from(lines()).find((l) => l.textContent === text);

describe('Check Install (operator §4, §8)', () => {
  it("needs a supply number: 'Required Field' and nothing sent", async () => {
    const { api, user } = renderPage({});
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Required Field')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it("shows 'Farm not found, try again.' in red and stops there", async () => {
    const { api, user } = renderPage({ CHECK_ONLINE: () => 'No such farm' });
    await user.type(screen.getByLabelText('Supply Number'), 'nope 1');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(line('Farm not found, try again.')?.className).toContain('--bad'));
    expect(api.callsOf('CHECK_ONLINE')[0]?.fields.get('supplyNumber')).toBe('NOPE1');
    expect(api.calls.map((c) => c.type)).toEqual(['CHECK_ONLINE']);
  });

  it("shows 'Connection is down' in red and runs no further checks", async () => {
    const { api, user } = renderPage({ CHECK_ONLINE: () => ({ online: false, lastSeen: null }) });
    await user.type(screen.getByLabelText('Supply Number'), '31245');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(line('Connection is down')?.className).toContain('--bad'));
    expect(api.calls.map((c) => c.type)).toEqual(['CHECK_ONLINE']);
  });

  it('when online, shows the diagnostics against the §9 thresholds and the sensor boards', async () => {
    const { user } = renderPage({
      CHECK_ONLINE: () => ({ online: true, lastSeen: '2026-11-25T00:00:00.000Z' }),
      CHECK_DIAGNOSTICS: () => ({
        data: { device: { network: { signal: { strength: 67, quality: 55 }, disconnects: 1 }, power: { source: 'BATTERY', battery: { state: 'charging' } }, published_at: null } },
      }),
      CHECK_SENSORBOARDS: () => ({ result: 'fault: vat 2 sensor board missing' }),
    });
    await user.type(screen.getByLabelText('Supply Number'), '31245');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(lines()).toHaveLength(6));
    expect(line('Connection is up')?.className).not.toContain('--bad');
    expect(line('Network strength: okay (67%)')?.className).not.toContain('--bad');
    expect(line('Signal quality: poor (55%)')?.className).toContain('--bad');
    expect(line('Mains power: bad (BATTERY)')?.className).toContain('--bad');
    expect(line('Battery: okay (charging)')?.className).not.toContain('--bad');
    expect(line('Sensor boards: fault: vat 2 sensor board missing')?.className).toContain('--bad');
  });
});
