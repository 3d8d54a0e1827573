import { describe, expect, it } from 'vitest';
import {
  clampAlertSetting,
  clampAutoSetting,
  DEFAULT_ALERT_SETTINGS,
  DEFAULT_AUTO_SETTINGS,
  validateAlertSettings,
  validateAutoSettings,
} from './settings';
import { channelsFor, defaultPreferences, mergePreferences, PREFERENCE_KEYS, preferencesInputSchema } from './preferences';

describe('farmer §5 clamps on blur', () => {
  it.each([
    ['milk_warm_plate', 10, 15],
    ['milk_warm_plate', 31, 30],
    ['milk_warm_plate', 17.6, 18],
    ['milk_cold', -1, 0],
    ['milk_cold', 7, 6],
    ['milk_cold', 2.3, 2.5],
    ['milk_cold', 2.2, 2],
    ['milk_volume', 40, 50],
    ['milk_volume', 120, 100],
    ['milk_slow_temp', 2, 3],
    ['milk_slow_temp', 11, 10],
    ['milk_slow_peroid', 10, 20],
    ['milk_slow_peroid', 500, 480],
    ['milk_duration', 20, 30],
    ['milk_duration', 61, 60],
    ['collection_duration', 0, 1],
    ['collection_duration', 4, 3],
    ['pick_up_alert', -5, 0],
    ['pick_up_alert', 31, 30],
  ] as const)('%s %s → %s', (field, value, expected) => expect(clampAlertSetting(field, value)).toBe(expected));

  it.each([
    ['pro_refrige_level_on_basepad', 10, 50],
    ['pro_refrige_level_on_basepad', 6000, 5500],
    ['pro_refrige_level_on_sidewall', 50, 100],
    ['pro_refrige_level_on_sidewall', 6000, 5500],
    ['pro_refrige_temp_on', 0, 1],
    ['pro_refrige_temp_on', 11, 10],
    ['pro_refrige_temp_off', 4.3, 4.5],
    ['pro_refrige_agitator_on_delay', 31, 30],
    ['pro_refrige_duration_on', 60, 59],
    ['pro_refrige_duration_off', -1, 0],
    ['pro_cip_cycle', 11, 10],
    ['pro_cip_delay', 31, 30],
  ] as const)('%s %s → %s', (field, value, expected) => expect(clampAutoSetting(field, value)).toBe(expected));

  it('basepad never above the sidewall, sidewall never below the basepad', () => {
    expect(clampAutoSetting('pro_refrige_level_on_basepad', 3000, { pro_refrige_level_on_sidewall: 2000 })).toBe(2000);
    expect(clampAutoSetting('pro_refrige_level_on_sidewall', 1000, { pro_refrige_level_on_basepad: 1500 })).toBe(1500);
  });
});

describe('farmer §5 checks on save', () => {
  it('accepts the §9 defaults and stores too cold with one decimal', () => {
    expect(validateAlertSettings({ ...DEFAULT_ALERT_SETTINGS })).toEqual({ ok: true, value: DEFAULT_ALERT_SETTINGS });
    expect(validateAlertSettings({ milk_cold: '2.50' })).toEqual({ ok: true, value: { ...DEFAULT_ALERT_SETTINGS, milk_cold: 2.5 } });
  });
  it.each([
    [{ milk_warm_plate: '18.5' }, 'Too warm input verification failed!'],
    [{ milk_warm_plate: '-1' }, 'Too warm input verification failed!'],
    [{ milk_warm_plate: 'abc' }, 'Too warm input verification failed!'],
    [{ milk_warm_plate: 40 }, 'Too warm input verification failed!'],
    [{ milk_volume: '80.5' }, 'Volume level input verification failed!'],
    [{ milk_volume: 101 }, 'Volume level input verification failed!'],
    [{ milk_cold: '2.25' }, 'Too cold input verification failed!'],
    [{ milk_cold: 7 }, 'Too cold input verification failed!'],
    [{ milk_cold: 2.3 }, 'Too cold input verification failed!'],
    [{ milk_slow_temp: 11 }, 'Slow to cool temperature input verification failed!'],
    [{ milk_slow_peroid: 500 }, 'Slow to cool period input verification failed!'],
    [{ milk_duration: 29 }, 'Milking duration input verification failed!'],
    [{ collection_duration: 4 }, 'Collection duration input verification failed!'],
    [{ pick_up_alert: 31 }, 'Pick up alert input verification failed!'],
  ])('%o → %s', (input, message) => expect(validateAlertSettings(input)).toEqual({ ok: false, message }));

  it('shows only the first error, in the form order', () => {
    expect(validateAlertSettings({ milk_volume: 'x', milk_warm_plate: 'x' })).toEqual({ ok: false, message: 'Too warm input verification failed!' });
  });

  it('controller settings: defaults pass, basepad above sidewall fails', () => {
    expect(validateAutoSettings({ ...DEFAULT_AUTO_SETTINGS })).toEqual({ ok: true, value: DEFAULT_AUTO_SETTINGS });
    expect(validateAutoSettings({ pro_refrige_level_on_basepad: 3000, pro_refrige_level_on_sidewall: 2000 })).toEqual({
      ok: false,
      message: 'Basepad level input verification failed!',
    });
    expect(validateAutoSettings({ pro_refrige_temp_on: 5.2 })).toEqual({ ok: false, message: 'Fridge on temperature input verification failed!' });
  });
});

describe('notification preferences (farmer §3 Alert setting)', () => {
  it('has the 19 rows of the spec and the added ones, email, text and push on by default', () => {
    expect(PREFERENCE_KEYS).toHaveLength(22);
    expect(PREFERENCE_KEYS).toContain('vat_full_before_pickup');
    expect(PREFERENCE_KEYS).toContain('vat_tanker_difference');
    expect(channelsFor(defaultPreferences(), 105)).toEqual({ email: true, text: true, push: true });
    expect(channelsFor(defaultPreferences(), 202)).toEqual({ email: true, text: true, push: true });
    expect(channelsFor(defaultPreferences(), 702)).toEqual({ email: true, text: true, push: true });
    expect(Object.values(defaultPreferences()).every((f) => f.email && f.text)).toBe(true);
  });
  it('merges a partial save and refuses unknown rows', () => {
    const merged = mergePreferences(undefined, { milk_warm: { email: true, text: false } });
    expect(channelsFor(merged, 101)).toEqual({ email: true, text: false, push: true });
    expect(channelsFor(merged, 301)).toEqual({ email: true, text: true, push: true });
    expect(preferencesInputSchema.safeParse({ milk_hot: { email: true, text: true } }).success).toBe(false);
  });
  it('SlowCool needs both its rows on', () => {
    const prefs = mergePreferences(undefined, { pro_slow_to_cold_period: { email: false, text: true } });
    expect(channelsFor(prefs, 110)).toEqual({ email: false, text: true, push: true });
    // Push (beyond the spec) is on unless turned off, for both rows too.
    const noPush = mergePreferences(undefined, { pro_slow_to_cold_period: { email: true, text: true, push: false } });
    expect(channelsFor(noPush, 110)).toEqual({ email: true, text: true, push: false });
  });
});
