import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { defaultPreferences, PREFERENCE_KEYS, type Preferences } from '@shared/alerts/preferences';
import type { Farm } from '@shared/entities/farm';
import { build } from '../../../testing/build';
import { fakeApi, type FakeHandler } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { withSelectedFarm } from '../../../testing/selected-farm';
import { PREFERENCE_GROUPS, PREFERENCE_TEXT } from '../utils/preference-rows';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();

const openPreferences = async ({
  stored = defaultPreferences(),
  farms = [build.farm({ _id: 'farm-1' })],
  set,
  emailStatus = 'confirmed',
}: { stored?: Preferences; farms?: Farm[]; set?: FakeHandler; emailStatus?: string } = {}) => {
  const api = fakeApi({
    USER_ONE_GET_BY_TOKEN: () => ({ user: build.user(), listFarm: farms, organization: null }),
    USER_SETTING_ALERT_GET_USER: () => ({ alert_setting: stored, sms: { sent: 7, total: 60 } }),
    USER_SETTING_ALERT_SET_USER: set ?? ((fields) => ({ alert_setting: JSON.parse(fields.get('alert_setting') ?? '{}') as unknown })),
    USER_ALERT_EMAIL_STATUS: () => ({ status: emailStatus }),
    USER_ALERT_EMAIL_RESEND: () => ({ status: 'pending' }),
  });
  const app = renderApp('/dts/user/setting', { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { level: 1, name: 'Notification Settings' });
  return { ...app, api };
};

const checkbox = (channel: 'Email' | 'Text', label: string) => screen.getByRole('checkbox', { name: `${channel}: ${label}` });

describe('/dts/user/setting (farmer §2.11)', () => {
  it("an expired alert email subscription: 'Alert email not confirmed' with a Resend button", async () => {
    const { api } = await openPreferences({ emailStatus: 'expired' });
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Alert email not confirmed');
    expect(notice).toHaveTextContent('expired');
    within(notice).getByRole('button', { name: 'Resend' }).click();
    await waitFor(() => expect(api.callsOf('USER_ALERT_EMAIL_RESEND')).toHaveLength(1));
  });

  it('shows the four groups of the 19 rows of §3 Alert setting and the added ones, and escalation, each row with Email and Text', async () => {
    const { api } = await openPreferences();
    await screen.findByRole('form', { name: 'Notification settings' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Vat-Man Lite alerts',
      'Vat-Man Pro alerts',
      'Vat-Man Auto alerts',
      'Other monitoring',
      'Forecasts',
      'Push notifications',
      'Escalation',
    ]);
    expect(PREFERENCE_GROUPS.flatMap((g) => g.rows).sort()).toEqual([...PREFERENCE_KEYS].sort());
    const lite = screen.getByRole('region', { name: 'Vat-Man Lite alerts' });
    expect(within(lite).getAllByRole('rowheader').map((r) => r.textContent?.replace(/i$/, ''))).toEqual([
      'Power outage',
      'Agitator stopped',
      'Milk too warm',
      'Plate cooler too warm',
      'Milk too cold',
      'Vat volume',
      'Monitor online/offline',
      'Cooling at risk',
      'Vat reading differs from tanker',
    ]);
    // Two per row, and the escalation's organization opt-in.
    // Email, Text and Push per row, and the escalation's organization opt-in.
    expect(screen.getAllByRole('checkbox')).toHaveLength(3 * PREFERENCE_KEYS.length + 1);
    expect(api.callsOf('USER_SETTING_ALERT_GET_USER')[0]?.fields.get('farm')).toBe('farm-1');
    expect(api.callsOf('USER_SETTING_ALERT_GET_USER')[0]?.path).toBe('/api/farmer/setting');
    expect(screen.getByText('Texts sent this month: 7 of 60')).toBeInTheDocument();
  });

  it('the boxes show the stored choices', async () => {
    const stored = { ...defaultPreferences(), milk_cold: { email: true, text: false }, water: { email: false, text: false } };
    await openPreferences({ stored });
    await screen.findByRole('form', { name: 'Notification settings' });
    expect(checkbox('Email', 'Milk too cold')).toBeChecked();
    expect(checkbox('Text', 'Milk too cold')).not.toBeChecked();
    expect(checkbox('Email', 'Water')).not.toBeChecked();
    expect(checkbox('Text', 'Power outage')).toBeChecked();
  });

  it("Save sends every row with USER_SETTING_ALERT_SET_USER and says 'Success!'", async () => {
    const { user, api } = await openPreferences();
    await screen.findByRole('form', { name: 'Notification settings' });
    await user.click(checkbox('Text', 'Power outage'));
    await user.click(checkbox('Email', 'Slow to cool period'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('snackbar-text')).toHaveTextContent(/^Success!$/);
    expect(api.callsOf('USER_SETTING_ALERT_SET_USER')[0]?.fields.get('farm')).toBe('farm-1');
    expect(api.jsonField('USER_SETTING_ALERT_SET_USER', 'alert_setting')).toEqual({
      ...defaultPreferences(),
      power_outage: { email: true, text: false },
      pro_slow_to_cold_period: { email: false, text: true },
    });
  });

  it('escalation: shows the default 15 minutes, and Save sends the changed choice with the rows', async () => {
    const { user, api } = await openPreferences();
    const card = await screen.findByRole('region', { name: 'Escalation' });
    const select = within(card).getByRole('combobox', { name: 'Send an unread critical alert again after' });
    expect(select).toHaveValue('15');
    const org = within(card).getByRole('checkbox', { name: /organization's other farms/ });
    expect(org).not.toBeChecked();
    await user.selectOptions(select, '30');
    await user.click(org);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('snackbar-text')).toHaveTextContent(/^Success!$/);
    expect(api.jsonField('USER_SETTING_ALERT_SET_USER', 'escalation')).toEqual({ minutes: 30, organization: true });
    // With escalation off there is nothing to escalate: the opt-in cannot be changed.
    await user.selectOptions(select, 'off');
    expect(org).toBeDisabled();
  });

  it("the server's refusal is shown in the snackbar", async () => {
    const { user } = await openPreferences({ set: () => ({ status: 422, body: { message: 'alert_setting must be valid JSON' } }) });
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('snackbar-text')).toHaveTextContent('alert_setting must be valid JSON');
  });

  it('each row has an info popover naming what raises it and its alert types; Escape closes it', async () => {
    const { user } = await openPreferences();
    const about = await screen.findByRole('button', { name: 'About Milk too warm' });
    expect(about).toHaveAttribute('aria-expanded', 'false');
    await user.click(about);
    expect(about).toHaveAttribute('aria-expanded', 'true');
    const note = screen.getByRole('note', { name: 'Milk too warm' });
    expect(note).toHaveTextContent(PREFERENCE_TEXT.milk_warm.info);
    expect(note).toHaveTextContent('Alert types: 101 Temperature over 10°C, 102 Temperature over 6°C.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^About / })).toHaveLength(PREFERENCE_KEYS.length);
  });

  it('a user without a farm stays on the page and is told there is nothing to choose', async () => {
    const { api } = await openPreferences({ farms: [] });
    expect(await screen.findByText(/No farm is linked to your account yet/)).toBeInTheDocument();
    await waitFor(() => expect(api.callsOf('USER_ONE_GET_BY_TOKEN').length).toBeGreaterThan(0));
    expect(api.callsOf('USER_SETTING_ALERT_GET_USER')).toHaveLength(0);
  });
});
