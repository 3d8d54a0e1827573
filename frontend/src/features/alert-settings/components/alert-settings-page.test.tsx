import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  ALERT_SETTING_FIELDS,
  ALERT_SETTING_RULES,
  AUTO_SETTING_FIELDS,
  AUTO_SETTING_RULES,
  DEFAULT_ALERT_SETTINGS,
  DEFAULT_AUTO_SETTINGS,
  type AlertSettingField,
  type AutoSettingField,
  type AutoSettings,
} from '@shared/alerts/settings';
import type { Package } from '@shared/entities/farm';
import { build } from '../../../testing/build';
import { fakeApi, type FakeHandler } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { withSelectedFarm } from '../../../testing/selected-farm';
import { ALERT_SETTING_LABELS, AUTO_SETTING_LABELS } from '../utils/labels';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm();

interface Setup {
  readonly pkg?: Package;
  readonly vats?: { _id: string; vat_number: number; auto_settings?: Partial<AutoSettings> }[];
  readonly set?: FakeHandler;
  readonly setAuto?: FakeHandler;
}

const openSettings = async ({ pkg = 'Vat-Man Lite', vats = [{ _id: 'dev-1', vat_number: 1 }], set, setAuto }: Setup = {}) => {
  const api = fakeApi({
    USER_ONE_GET_BY_TOKEN: () => ({ user: build.user(), listFarm: [build.farm({ _id: 'farm-1', package: pkg })], organization: null }),
    FARMER_NOTIFICATION_STATUS: () => 'NO',
    USER_SETTING_ALERT_GET: () => ({
      farm: { _id: 'farm-1', package: pkg, alert_setting: { ...DEFAULT_ALERT_SETTINGS, milk_warm_plate: 20 } },
      vats: vats.map((v) => ({ _id: v._id, vat_number: v.vat_number, vat_auto: true, auto_settings: { ...DEFAULT_AUTO_SETTINGS, ...v.auto_settings } })),
    }),
    USER_SETTING_ALERT_SET: set ?? ((fields) => ({ alert_setting: { ...DEFAULT_ALERT_SETTINGS, ...(JSON.parse(fields.get('alert_setting') ?? '{}') as object) } })),
    USER_SETTING_ALERT_SET_AUTO: setAuto ?? ((fields) => ({ return_value: 'OK', auto_settings: JSON.parse(fields.get('vat') ?? '{}') as object })),
  });
  const app = renderApp('/dts/setting/alert', { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  await screen.findByRole('form', { name: 'Alert settings' });
  return { ...app, api };
};

const thresholdLabel = (f: AlertSettingField) => `${ALERT_SETTING_LABELS[f].label} (${ALERT_SETTING_LABELS[f].unit})`;
const controllerLabel = (f: AutoSettingField) => `${AUTO_SETTING_LABELS[f].label} (${AUTO_SETTING_LABELS[f].unit})`;
const sectionTitles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const snackbar = () => screen.findByTestId('snackbar-text');
const thresholds = () => screen.getByRole('form', { name: 'Alert settings' });
const controller = (vat: number) => screen.getByRole('form', { name: `Vat ${vat}: Vat-Man Auto controller` });

describe('/dts/setting/alert sections by package (farmer §2.9, §6)', () => {
  it('Vat-Man Lite: the Lite section only, filled from USER_SETTING_ALERT_GET for the selected farm', async () => {
    const { api } = await openSettings();
    expect(sectionTitles()).toEqual(['Vat-Man Lite alerts']);
    expect(api.callsOf('USER_SETTING_ALERT_GET')[0]?.fields.get('farm')).toBe('farm-1');
    expect(api.callsOf('USER_SETTING_ALERT_GET')[0]?.path).toBe('/api/farmer/setting');
    expect(screen.getByLabelText('Too warm (°C)')).toHaveValue('20');
    expect(screen.getByLabelText('Too cold (°C)')).toHaveValue('2');
    expect(screen.getByLabelText('Volume level (%)')).toHaveValue('80');
    expect(screen.queryByLabelText('Slow to cool period (min)')).not.toBeInTheDocument();
  });

  it('Vat-Man Pro: Lite and Pro sections, no controller', async () => {
    await openSettings({ pkg: 'Vat-Man Pro' });
    expect(sectionTitles()).toEqual(['Vat-Man Lite alerts', 'Vat-Man Pro alerts']);
    for (const f of ALERT_SETTING_FIELDS) expect(screen.getByLabelText(thresholdLabel(f))).toHaveValue(String(f === 'milk_warm_plate' ? 20 : DEFAULT_ALERT_SETTINGS[f]));
  });

  it('Vat-Man Auto: Lite, Pro and a controller section per vat, in vat order', async () => {
    await openSettings({ pkg: 'Vat-Man Auto', vats: [{ _id: 'dev-2', vat_number: 2 }, { _id: 'dev-1', vat_number: 1 }] });
    expect(sectionTitles()).toEqual(['Vat-Man Lite alerts', 'Vat-Man Pro alerts', 'Vat 1: Vat-Man Auto controller', 'Vat 2: Vat-Man Auto controller']);
  });

  it('the rinse duration shows the cycle value and the CIP on duration the delay value (the swapped labels)', async () => {
    await openSettings({ pkg: 'Vat-Man Auto', vats: [{ _id: 'dev-1', vat_number: 1, auto_settings: { pro_cip_cycle: 7, pro_cip_delay: 22 } }] });
    const form = controller(1);
    expect(within(form).getByLabelText('Rinse duration (min)')).toHaveValue('7');
    expect(within(form).getByLabelText('CIP on duration (min)')).toHaveValue('22');
    const names = within(form).getAllByRole('textbox').map((i) => i.getAttribute('name'));
    expect(names).toEqual([...AUTO_SETTING_FIELDS]);
  });
});

describe('threshold clamps on blur (farmer §5)', () => {
  const cases: Record<AlertSettingField, [string, string][]> = {
    milk_warm_plate: [['10', '15'], ['31', '30'], ['18.4', '18']],
    milk_cold: [['-1', '0'], ['7', '6'], ['2.3', '2.5'], ['1.2', '1']],
    milk_volume: [['40', '50'], ['120', '100'], ['80.6', '81']],
    milk_slow_temp: [['2', '3'], ['11', '10'], ['8.04', '8']],
    milk_slow_peroid: [['10', '20'], ['500', '480'], ['45.5', '46']],
    milk_duration: [['20', '30'], ['70', '60']],
    collection_duration: [['0', '1'], ['4', '3'], ['1.6', '2']],
    pick_up_alert: [['-3', '0'], ['31', '30'], ['12', '12']],
  };
  it.each(ALERT_SETTING_FIELDS)('%s', async (field) => {
    const { user } = await openSettings({ pkg: 'Vat-Man Pro' });
    const input = screen.getByLabelText(thresholdLabel(field));
    for (const [typed, shown] of cases[field]) {
      await user.clear(input);
      await user.type(input, typed);
      await user.tab();
      expect(input, `${typed} → ${shown}`).toHaveValue(shown);
    }
  });

  it('leaves text that is not a number as typed', async () => {
    const { user } = await openSettings();
    const input = screen.getByLabelText('Too warm (°C)');
    await user.clear(input);
    await user.type(input, 'abc');
    await user.tab();
    expect(input).toHaveValue('abc');
  });
});

describe('threshold save (farmer §5, §7, §8)', () => {
  it.each(ALERT_SETTING_FIELDS)("%s: a value that is not a number stops the save with the field's message", async (field) => {
    const { user, api } = await openSettings({ pkg: 'Vat-Man Pro' });
    const input = screen.getByLabelText(thresholdLabel(field));
    await user.clear(input);
    await user.type(input, 'x');
    await user.click(within(thresholds()).getByRole('button', { name: 'Save' }));
    expect(await snackbar()).toHaveTextContent(ALERT_SETTING_RULES[field].message);
    expect(api.callsOf('USER_SETTING_ALERT_SET')).toHaveLength(0);
  });

  it.each([
    ['Too warm (°C)', 'milk_warm_plate', '31', 30],
    ['Too warm (°C)', 'milk_warm_plate', '18.4', 18],
    ['Too cold (°C)', 'milk_cold', '2.25', 2.5],
    ['Volume level (%)', 'milk_volume', '101', 100],
    ['Volume level (%)', 'milk_volume', '-80', 50],
  ] as const)("%s '%s' saved with Enter (no blur) is clamped as on blur, then sent", async (label, field, typed, sent) => {
    const { user, api } = await openSettings();
    const input = screen.getByLabelText(label);
    await user.clear(input);
    await user.type(input, `${typed}{Enter}`);
    expect(await snackbar()).toHaveTextContent(/^Success!$/);
    expect(input).toHaveValue(String(sent));
    expect(api.jsonField('USER_SETTING_ALERT_SET', 'alert_setting')).toMatchObject({ [field]: sent });
  });

  it.each([
    ['Too warm (°C)', '', 'Too warm input verification failed!'],
    ['Too cold (°C)', 'abc', 'Too cold input verification failed!'],
  ])("%s '%s' (nothing a clamp can mend) saved with Enter is refused: %s", async (label, typed, message) => {
    const { user, api } = await openSettings();
    const input = screen.getByLabelText(label);
    await user.clear(input);
    await user.type(input, `${typed}{Enter}`);
    expect(await snackbar()).toHaveTextContent(message);
    expect(api.callsOf('USER_SETTING_ALERT_SET')).toHaveLength(0);
  });

  it("only the first failing field's message is shown, in form order", async () => {
    const { user } = await openSettings();
    for (const label of ['Too cold (°C)', 'Volume level (%)']) {
      await user.clear(screen.getByLabelText(label));
      await user.type(screen.getByLabelText(label), 'x');
    }
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await snackbar()).toHaveTextContent(/^Too cold input verification failed!$/);
  });

  it("Save sends the shown fields with USER_SETTING_ALERT_SET and says 'Success!'", async () => {
    const { user, api } = await openSettings({ pkg: 'Vat-Man Pro' });
    const cold = screen.getByLabelText('Too cold (°C)');
    await user.clear(cold);
    await user.type(cold, '3.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await snackbar()).toHaveTextContent(/^Success!$/);
    expect(api.callsOf('USER_SETTING_ALERT_SET')[0]?.fields.get('farm')).toBe('farm-1');
    expect(api.jsonField('USER_SETTING_ALERT_SET', 'alert_setting')).toEqual({ ...DEFAULT_ALERT_SETTINGS, milk_warm_plate: 20, milk_cold: 3.5 });
  });

  it('a Lite farm sends only the Lite fields (the server keeps the rest)', async () => {
    const { user, api } = await openSettings();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsOf('USER_SETTING_ALERT_SET')).toHaveLength(1));
    expect(api.jsonField('USER_SETTING_ALERT_SET', 'alert_setting')).toEqual({ milk_warm_plate: 20, milk_cold: 2, milk_volume: 80 });
  });

  it("the server's refusal is shown in the snackbar", async () => {
    const { user } = await openSettings({ set: () => ({ status: 422, body: { message: 'Too warm input verification failed!' } }) });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await snackbar()).toHaveTextContent('Too warm input verification failed!');
  });
});

describe('controller clamps on blur (farmer §5)', () => {
  const cases: Record<AutoSettingField, [string, string][]> = {
    pro_refrige_level_on_basepad: [['10', '50'], ['6000', '5500'], ['120.4', '120']],
    pro_refrige_level_on_sidewall: [['50', '100'], ['6000', '5500'], ['2000.6', '2001']],
    pro_refrige_temp_on: [['0', '1'], ['11', '10'], ['4.3', '4.5']],
    pro_refrige_temp_off: [['0.5', '1'], ['12', '10'], ['3.7', '3.5']],
    pro_refrige_agitator_on_delay: [['-1', '0'], ['31', '30'], ['9.6', '10']],
    pro_refrige_duration_on: [['-5', '0'], ['60', '59']],
    pro_refrige_duration_off: [['-5', '0'], ['75', '59']],
    pro_cip_cycle: [['-1', '0'], ['11', '10']],
    pro_cip_delay: [['-1', '0'], ['31', '30']],
  };
  it.each(AUTO_SETTING_FIELDS)('%s', async (field) => {
    const { user } = await openSettings({ pkg: 'Vat-Man Auto' });
    const input = within(controller(1)).getByLabelText(controllerLabel(field));
    for (const [typed, shown] of cases[field]) {
      await user.clear(input);
      await user.type(input, typed);
      await user.tab();
      expect(input, `${typed} → ${shown}`).toHaveValue(shown);
    }
  });

  it('the basepad level never goes above the sidewall level, nor the sidewall below the basepad', async () => {
    const { user } = await openSettings({ pkg: 'Vat-Man Auto' });
    const form = controller(1);
    const basepad = within(form).getByLabelText('Basepad level (mm)');
    const sidewall = within(form).getByLabelText('Sidewall level (mm)');
    await user.clear(sidewall);
    await user.type(sidewall, '1000');
    await user.tab();
    await user.clear(basepad);
    await user.type(basepad, '2000');
    await user.tab();
    expect(basepad).toHaveValue('1000');
    await user.clear(basepad);
    await user.type(basepad, '800');
    await user.tab();
    await user.clear(sidewall);
    await user.type(sidewall, '300');
    await user.tab();
    expect(sidewall).toHaveValue('800');
  });
});

describe('controller save (farmer §5, §7, §8)', () => {
  it.each(AUTO_SETTING_FIELDS)("%s: a value that is not a number stops the save with the field's message", async (field) => {
    const { user, api } = await openSettings({ pkg: 'Vat-Man Auto' });
    const form = controller(1);
    const input = within(form).getByLabelText(controllerLabel(field));
    await user.clear(input);
    await user.type(input, 'x');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await snackbar()).toHaveTextContent(AUTO_SETTING_RULES[field].message);
    expect(api.callsOf('USER_SETTING_ALERT_SET_AUTO')).toHaveLength(0);
  });

  it('a basepad above the sidewall saved with Enter (no blur) is clamped to the sidewall, then sent', async () => {
    const { user, api } = await openSettings({
      pkg: 'Vat-Man Auto',
      vats: [{ _id: 'dev-1', vat_number: 1, auto_settings: { pro_refrige_level_on_sidewall: 1000 } }],
      setAuto: () => ({ return_value: 'settings applied', auto_settings: DEFAULT_AUTO_SETTINGS }),
    });
    const basepad = within(controller(1)).getByLabelText('Basepad level (mm)');
    await user.clear(basepad);
    await user.type(basepad, '1500{Enter}');
    expect(await snackbar()).toHaveTextContent(/^Success: settings applied$/);
    expect(basepad).toHaveValue('1000');
    expect(api.jsonField('USER_SETTING_ALERT_SET_AUTO', 'vat')).toMatchObject({ pro_refrige_level_on_basepad: 1000, pro_refrige_level_on_sidewall: 1000 });
  });

  it("Save sends that vat's settings with USER_SETTING_ALERT_SET_AUTO and shows 'Success: {return_value}'", async () => {
    const { user, api } = await openSettings({
      pkg: 'Vat-Man Auto',
      vats: [{ _id: 'dev-1', vat_number: 1 }, { _id: 'dev-2', vat_number: 2 }],
      setAuto: () => ({ return_value: 'settings applied', auto_settings: DEFAULT_AUTO_SETTINGS }),
    });
    const form = controller(2);
    const on = within(form).getByLabelText('Fridge on temperature (°C)');
    await user.clear(on);
    await user.type(on, '6.5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await snackbar()).toHaveTextContent(/^Success: settings applied$/);
    expect(api.callsOf('USER_SETTING_ALERT_SET_AUTO')[0]?.fields.get('farm')).toBe('farm-1');
    expect(api.jsonField('USER_SETTING_ALERT_SET_AUTO', 'vat')).toEqual({ _id: 'dev-2', ...DEFAULT_AUTO_SETTINGS, pro_refrige_temp_on: 6.5 });
    expect(api.callsOf('USER_SETTING_ALERT_SET')).toHaveLength(0);
  });
});
