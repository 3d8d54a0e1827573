import {
  AUTO_ONLY_MESSAGE,
  farmerSettingContracts as contracts,
  type AlertSettingsAnswer,
  type AlertSettingsSetAnswer,
  type AutoSettingsSetAnswer,
  type PreferencesAnswer,
  type PreferencesSetAnswer,
} from '../../shared/api/actions/farmer-setting';
import { mergePreferences } from '../../shared/alerts/preferences';
import { AUTO_SETTING_FIELDS, validateAlertSettings, validateAutoSettings } from '../../shared/alerts/settings';
import { smsTotalFor } from '../../shared/constants';
import { localMonth } from '../../shared/time/local-day';
import { hastenEscalations } from '../alerts/escalation-hasten';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';
import { settingsTargetOf } from '../lib/settings-target';

/** What a vat's controller answers when it did not reply in time (the settings are saved). */
const NO_DEVICE_ANSWER = 'no answer from the vat within 5 seconds; the settings are saved, please check the controller';

/** /api/farmer/setting (farmer §2.9, §2.11, §5, §7). */
export const farmerSettingHandlers: readonly ServedAction[] = [
  /** farm.alert_setting, farm.package, and the vats with their controller settings (farmer §7). */
  serve(contracts.USER_SETTING_ALERT_GET, ['alertSettings', 'farms'], async (_input, { farm, deps }) => {
    const [alertSetting, devices] = await Promise.all([deps.alertSettings.getFarmSettings(farm._id), deps.farms.listDevicesOfFarm(farm._id)]);
    const vats = await Promise.all(
      devices
        .filter((d) => d.status === 1)
        .map(async (d) => ({ _id: d._id, vat_number: d.vat_number, vat_auto: d.vat_auto, auto_settings: await deps.alertSettings.getAutoSettings(d._id) })),
    );
    return { farm: { _id: farm._id, package: farm.package, alert_setting: alertSetting }, vats } satisfies AlertSettingsAnswer;
  }),

  /** Farmer §5: every check and clamp on the server; the first failure is a 422 and nothing is stored. */
  serve(contracts.USER_SETTING_ALERT_SET, ['alertSettingsWrite'], async ({ farm: farmId, alert_setting }, { deps }) => {
    const current = await deps.alertSettingsWrite.getFarmSettings(farmId);
    const result = validateAlertSettings(alert_setting, current);
    if (!result.ok) throw new ValidationError(result.message);
    await deps.alertSettingsWrite.putFarmSettings(farmId, result.value);
    return { alert_setting: result.value } satisfies AlertSettingsSetAnswer;
  }),

  /**
   * A vat's controller settings (Vat-Man Auto only, farmer §6): checked and clamped as §5, saved,
   * then sent to the vat over MQTT; the answer is the device's (shown as 'Success: {return_value}').
   */
  serve(contracts.USER_SETTING_ALERT_SET_AUTO, ['alertSettingsWrite', 'farms', 'units', 'devices'], async ({ farm: farmId, vat }, { farm, deps, log }) => {
    if (farm.package !== 'Vat-Man Auto') throw new ForbiddenError(AUTO_ONLY_MESSAGE);
    const device = await deps.farms.getDevice(vat._id);
    if (!device || device.farm_id !== farmId || device.status !== 1) throw new ForbiddenError();
    const input = Object.fromEntries(AUTO_SETTING_FIELDS.filter((f) => Object.hasOwn(vat, f)).map((f) => [f, vat[f]]));
    const result = validateAutoSettings(input, await deps.alertSettingsWrite.getAutoSettings(device._id));
    if (!result.ok) throw new ValidationError(result.message);
    await deps.alertSettingsWrite.putAutoSettings(device._id, result.value);
    const answer = await deps.devices.sendSettings(await settingsTargetOf(deps.units, device), result.value);
    if (!answer.answered) log.warn('vat did not answer its settings', { device: device._id });
    return { return_value: answer.answered ? answer.return_value : NO_DEVICE_ANSWER, auto_settings: result.value } satisfies AutoSettingsSetAnswer;
  }),

  /** The caller's alert preferences (farmer §2.11) and the farm's texts this month beside its allowance. */
  serve(contracts.USER_SETTING_ALERT_GET_USER, ['alertSettings', 'alerts', 'now'], async ({ farm: farmId }, { farm, caller, deps }) => {
    const [prefs, sent, escalation] = await Promise.all([
      deps.alertSettings.getPreferences(caller.userId),
      deps.alerts.smsCount(farmId, localMonth(deps.now(), farm.timezone)),
      deps.alertSettings.getEscalation(caller.userId),
    ]);
    return { alert_setting: prefs, escalation, sms: { sent, total: smsTotalFor(farm.package) } } satisfies PreferencesAnswer;
  }),

  serve(contracts.USER_SETTING_ALERT_SET_USER, ['alertSettingsWrite', 'alertsWrite', 'now'], async ({ alert_setting, escalation }, { caller, deps, log }) => {
    const merged = mergePreferences(await deps.alertSettingsWrite.getPreferences(caller.userId), alert_setting);
    await deps.alertSettingsWrite.putPreferences(caller.userId, merged);
    if (escalation) {
      const before = await deps.alertSettingsWrite.getEscalation(caller.userId);
      // A client that does not know the push minutes (they came later) keeps the stored ones.
      const keepPush = escalation.push_minutes === undefined && before.push_minutes !== undefined ? { push_minutes: before.push_minutes } : {};
      await deps.alertSettingsWrite.putEscalation(caller.userId, { ...escalation, ...keepPush });
      // Shorter minutes apply to the unread alerts already waiting too (longer or off: the notifier
      // finds it when a step comes due, so the due index is read only when the minutes got shorter or
      // came back on: a step planned before they were turned off may still wait). Saved
      // either way: a step not moved here is planned from the saved minutes when it comes due.
      if (escalation.minutes !== null && (before.minutes === null || escalation.minutes < before.minutes))
        await hastenEscalations({ alerts: deps.alertsWrite, now: deps.now }, caller.userId, escalation.minutes).catch((err: unknown) =>
          log.warn('waiting escalation steps not moved to the new minutes', { user: caller.userId, err }),
        );
    }
    return { alert_setting: merged, escalation: escalation ?? (await deps.alertSettingsWrite.getEscalation(caller.userId)) } satisfies PreferencesSetAnswer;
  }),
];
