import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WATCHMAN_DEFAULTS } from '@shared/constants';
import type { FakeHandler } from '../../../testing/fake-api';
import { renderWithFakeApi } from '../../../testing/render-app';
import { WatchmanPage } from './watchman-page';

const renderPage = (handlers: Record<string, FakeHandler>) =>
  renderWithFakeApi(<WatchmanPage />, { GET_ACTIVITY: () => [], GET_ACTIVITY_SUMMARY: () => ({ count: 0, open_cases: [], settings_changes: [] }), GET_SETTINGS: () => ({ key: 'watchman', settings: WATCHMAN_DEFAULTS }), ...handlers });

describe('Watchman settings (operator §5, §7, §8)', () => {
  it("marks an empty field 'Required Field' and a negative one, and sends nothing", async () => {
    const { api, user } = renderPage({});
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    const days = await screen.findByLabelText('Fault check (days)');
    await user.clear(days);
    await user.clear(screen.getByLabelText('Minimum data points'));
    await user.type(screen.getByLabelText('Minimum data points'), '-1');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Required Field')).toBeTruthy();
    expect(screen.getByText('Minimum data points must be 0 or more')).toBeTruthy();
    expect(api.callsOf('SAVE_SETTINGS')).toHaveLength(0);
  });

  it('lets the probe minimum be negative and sends every setting in camelCase; Success, or Error for any other answer', async () => {
    const { api, user } = renderPage({ SAVE_SETTINGS: () => 'success' });
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    const min = await screen.findByLabelText('Minimum temp probe temp (°C)');
    await user.clear(min);
    await user.type(min, '-25');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('heading', { name: 'Success' })).toBeTruthy();
    const sent = api.callsOf('SAVE_SETTINGS')[0]?.fields;
    expect(sent?.get('minimumTempProbeTemp')).toBe('-25');
    expect(sent?.get('onStatus')).toBe('true');
    expect(sent?.get('autoTurnFonterraSyncOff')).toBe('true');
    expect(sent?.get('recentInstallWeeks')).toBe('2');
  });

  it("shows 'Error' when the save fails", async () => {
    const { user } = renderPage({ SAVE_SETTINGS: () => ({ status: 500, body: { message: 'Server Error!' } }) });
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await screen.findByLabelText('Fault check (days)');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Error' })).toBeTruthy());
  });
});

describe('Watchman Activity: settings changes', () => {
  it('lists who changed which settings, before and after', async () => {
    const change = { at: '2026-11-02T00:00:00.000Z', by: { _id: 'sub-i', email: 'installer@vatman.local' }, action: 'SAVE_SETTINGS', target: 'Watchman settings', before: 'Calibration days: 30', after: 'Calibration days: 45' };
    renderPage({ GET_ACTIVITY_SUMMARY: () => ({ count: 0, open_cases: [], settings_changes: [change] }) });
    const table = await screen.findByRole('table', { name: 'Settings changes' });
    expect(table.textContent).toContain('installer@vatman.local');
    expect(table.textContent).toContain('Calibration days: 45');
  });
});
