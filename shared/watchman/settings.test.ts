import { describe, expect, it } from 'vitest';
import { WATCHMAN_DEFAULTS } from '../constants';
import { watchmanInputs } from '../api/actions/operator';
import { camelOf, checkWatchmanForm, msgMinAboveMax, MSG_REQUIRED, WATCHMAN_LABELS, WATCHMAN_NUMBER_KEYS, withDefaults } from './settings';

const form = (over: Record<string, string> = {}) => ({
  ...Object.fromEntries(Object.entries(WATCHMAN_DEFAULTS).map(([k, v]) => [camelOf(k), String(v)])),
  ...over,
});

describe('Watchman settings (operator §5, §9)', () => {
  it('the defaults are the §9 helper text', () => {
    expect(WATCHMAN_DEFAULTS).toMatchObject({
      recent_install_weeks: 2, dried_off_days: 4, fault_check_days: 3, minimum_data_points: 12,
      minimum_signal_strength_alone: 15, minimum_signal_strength: 20, minimum_signal_quality: 55, maximum_disconnects: 200,
      minimum_temp_probe_temp: -20, maximum_temp_probe_temp: 100, temp_accuracy_threshold: 1.5,
      minimum_agitator_probe_fault_threshold: 30, maximum_agitator_probe_fault_threshold: 100,
      calibration_days: 30, matching_pickup_minutes: 30, minimum_matched_collections: 3,
    });
    expect(withDefaults(undefined)).toEqual(WATCHMAN_DEFAULTS);
  });
  it('accepts the defaults as typed and answers them as settings', () => {
    expect(checkWatchmanForm(form())).toEqual({ ok: true, settings: WATCHMAN_DEFAULTS });
  });
  it('requires every numeric field', () => {
    for (const k of WATCHMAN_NUMBER_KEYS) expect(checkWatchmanForm(form({ [camelOf(k)]: ' ' }))).toEqual({ ok: false, errors: { [k]: MSG_REQUIRED } });
  });
  it("names each empty field in the server's answer, which may list several", () => {
    const sent = { type: 'SAVE_SETTINGS', ...form({ driedOffDays: '' }) } as Record<string, unknown>;
    delete sent.calibrationDays;
    const parsed = watchmanInputs.SAVE_SETTINGS.safeParse(sent);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message).sort()).toEqual([`${WATCHMAN_LABELS.calibration_days}: ${MSG_REQUIRED}`, `${WATCHMAN_LABELS.dried_off_days}: ${MSG_REQUIRED}`].sort());
  });
  it('refuses negatives except the probe minimum and maximum', () => {
    for (const k of WATCHMAN_NUMBER_KEYS) {
      const r = checkWatchmanForm(form({ [camelOf(k)]: '-1' }));
      if (k === 'minimum_temp_probe_temp' || k === 'maximum_temp_probe_temp') expect(r.ok).toBe(true);
      else expect(r).toMatchObject({ ok: false, errors: { [k]: expect.stringContaining('must be 0 or more') } });
    }
  });
  it('refuses text that is not a number', () => {
    expect(checkWatchmanForm(form({ minimumSignalStrength: 'abc' }))).toMatchObject({ ok: false, errors: { minimum_signal_strength: expect.stringContaining('must be a number') } });
  });
  it('refuses a probe minimum above its maximum, in the form and in SAVE_SETTINGS (equal is allowed)', () => {
    const cases = [
      [{ minimumTempProbeTemp: '150', maximumTempProbeTemp: '100' }, 'minimum_temp_probe_temp', 'maximum_temp_probe_temp'],
      [{ minimumAgitatorProbeFaultThreshold: '130', maximumAgitatorProbeFaultThreshold: '100' }, 'minimum_agitator_probe_fault_threshold', 'maximum_agitator_probe_fault_threshold'],
    ] as const;
    for (const [over, min, max] of cases) {
      expect(checkWatchmanForm(form(over))).toEqual({ ok: false, errors: { [min]: msgMinAboveMax(min, max) } });
      const sent = watchmanInputs.SAVE_SETTINGS.safeParse({ type: 'SAVE_SETTINGS', ...form(over) });
      expect(sent.success).toBe(false);
      expect(sent.error?.issues.map((i) => i.message)).toEqual([msgMinAboveMax(min, max)]);
    }
    expect(checkWatchmanForm(form({ minimumTempProbeTemp: '5', maximumTempProbeTemp: '5' })).ok).toBe(true);
    expect(watchmanInputs.SAVE_SETTINGS.safeParse({ type: 'SAVE_SETTINGS', ...form() }).success).toBe(true);
  });
});
