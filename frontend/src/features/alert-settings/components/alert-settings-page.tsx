import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import {
  ALERT_SETTING_RULES,
  AUTO_SETTING_FIELDS,
  AUTO_SETTING_RULES,
  clampAlertSetting,
  clampAutoSetting,
  validateAlertSettings,
  validateAutoSettings,
  type AlertSettingField,
  type AlertSettings,
  type AutoSettingField,
  type AutoSettings,
} from '@shared/alerts/settings';
import type { Farm, Package } from '@shared/entities/farm';
import { useSnackbar } from '../../../components/snackbar';
import { useApiClient } from '../../../lib/api-client-provider';
import { alertSettingsQuery, saveAlertSettings, saveAutoSettings, type VatSettings } from '../api/alert-settings';
import { clampFields, parseNumber, pick, toFormValues, type FormValues } from '../utils/form-values';
import { ALERT_SETTING_LABELS, AUTO_SETTING_LABELS, LITE_FIELDS, PRO_FIELDS } from '../utils/labels';
import { SettingField } from './setting-field';
import './alert-settings.css';
import { SaveActions } from './save-actions';

/** What this screen reads from the farmer shell's outlet context (its contract, not its code). */
interface AlertSettingsContext {
  readonly farm: Pick<Farm, '_id'> | undefined;
}

const SUCCESS = 'Success!';

const hasPro = (pkg: Package): boolean => pkg === 'Vat-Man Pro' || pkg === 'Vat-Man Auto';

/** /dts/setting/alert (farmer §2.9): threshold sections by package and, for Vat-Man Auto, a controller section per vat. */
export function AlertSettingsPage() {
  const { farm } = useOutletContext<AlertSettingsContext>();
  const client = useApiClient();
  const query = useQuery({ ...alertSettingsQuery(client, farm?._id ?? ''), enabled: farm !== undefined });
  const data = query.data && farm && query.data.farm._id === farm._id ? query.data : undefined;

  return (
    <section className="settings">
      <h1 className="page__title">Settings</h1>
      {!data ? (
        <p className="page__note">{query.isError ? 'The settings could not be loaded.' : 'Loading…'}</p>
      ) : (
        <>
          <ThresholdForm
            key={data.farm._id}
            farmId={data.farm._id}
            fields={hasPro(data.farm.package) ? [...LITE_FIELDS, ...PRO_FIELDS] : LITE_FIELDS}
            pro={hasPro(data.farm.package)}
            current={data.farm.alert_setting}
          />
          {data.farm.package === 'Vat-Man Auto' &&
            [...data.vats].sort((a, b) => a.vat_number - b.vat_number).map((vat) => <ControllerForm key={vat._id} farmId={data.farm._id} vat={vat} />)}
        </>
      )}
    </section>
  );
}

interface ThresholdFormProps {
  readonly farmId: string;
  readonly fields: readonly AlertSettingField[];
  readonly pro: boolean;
  readonly current: AlertSettings;
}

function ThresholdForm({ farmId, fields, pro, current }: ThresholdFormProps) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [values, setValues] = useState<FormValues<AlertSettingField>>(() => toFormValues(fields, current));
  const save = useMutation({
    mutationFn: (settings: Partial<AlertSettings>) => saveAlertSettings(client, farmId, settings),
    onSuccess: () => {
      snackbar.show(SUCCESS, 'success');
      void queryClient.invalidateQueries({ queryKey: alertSettingsQuery(client, farmId).queryKey });
    },
  });

  const clampAll = (v: FormValues<AlertSettingField>, only: readonly AlertSettingField[]) => clampFields(v, only, (f, n) => clampAlertSetting(f, n));
  const blur = (field: AlertSettingField) => setValues((v) => clampAll(v, [field]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Farmer §5 clamps on blur; Enter saves without a blur, so the save clamps too, then checks:
    // only a value no clamp can mend (not a number) is refused with its field's message.
    const clamped = clampAll(values, fields);
    setValues(clamped);
    const result = validateAlertSettings(pick(fields, clamped), current);
    if (!result.ok) {
      snackbar.show(result.message, 'error');
      return;
    }
    save.mutate(pick(fields, result.value));
  };

  const field = (f: AlertSettingField) => (
    <SettingField
      key={f}
      name={f}
      text={ALERT_SETTING_LABELS[f]}
      range={ALERT_SETTING_RULES[f]}
      value={values[f]}
      onChange={(text) => setValues((v) => ({ ...v, [f]: text }))}
      onBlur={() => blur(f)}
    />
  );

  return (
    <form className="form" aria-label="Alert settings" noValidate onSubmit={submit}>
      <section className="settings__card" aria-labelledby="settings-lite">
        <h2 id="settings-lite">Vat-Man Lite alerts</h2>
        <div className="settings__fields">{LITE_FIELDS.map(field)}</div>
      </section>
      {pro && (
        <section className="settings__card" aria-labelledby="settings-pro">
          <h2 id="settings-pro">Vat-Man Pro alerts</h2>
          <div className="settings__fields">{PRO_FIELDS.map(field)}</div>
        </section>
      )}
      <SaveActions pending={save.isPending} />
    </form>
  );
}

function ControllerForm({ farmId, vat }: { readonly farmId: string; readonly vat: VatSettings }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [values, setValues] = useState<FormValues<AutoSettingField>>(() => toFormValues(AUTO_SETTING_FIELDS, vat.auto_settings));
  const save = useMutation({
    mutationFn: (settings: AutoSettings) => saveAutoSettings(client, farmId, vat._id, settings),
    onSuccess: (answer) => {
      snackbar.show(`Success: ${answer.return_value}`, 'success');
      void queryClient.invalidateQueries({ queryKey: alertSettingsQuery(client, farmId).queryKey });
    },
  });
  const titleId = `controller-${vat._id}`;

  const clampAll = (v: FormValues<AutoSettingField>, only: readonly AutoSettingField[]) =>
    clampFields(v, only, (f, n, now) => {
      // The basepad is kept at or below the sidewall and the sidewall at or above the basepad (§5).
      const basepad = parseNumber(now.pro_refrige_level_on_basepad);
      const sidewall = parseNumber(now.pro_refrige_level_on_sidewall);
      const other: Partial<AutoSettings> = {
        ...(basepad !== undefined ? { pro_refrige_level_on_basepad: basepad } : {}),
        ...(sidewall !== undefined ? { pro_refrige_level_on_sidewall: sidewall } : {}),
      };
      return clampAutoSetting(f, n, other);
    });
  const blur = (field: AutoSettingField) => setValues((v) => clampAll(v, [field]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // As the threshold form: clamp as on blur, then check what cannot be clamped.
    const clamped = clampAll(values, AUTO_SETTING_FIELDS);
    setValues(clamped);
    const result = validateAutoSettings(clamped, vat.auto_settings);
    if (!result.ok) {
      snackbar.show(result.message, 'error');
      return;
    }
    save.mutate(result.value);
  };

  return (
    <form className="form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <section className="settings__card">
        <h2 id={titleId}>Vat {vat.vat_number}: Vat-Man Auto controller</h2>
        <div className="settings__fields">
          {AUTO_SETTING_FIELDS.map((f) => (
            <SettingField
              key={f}
              name={f}
              text={AUTO_SETTING_LABELS[f]}
              range={AUTO_SETTING_RULES[f]}
              value={values[f]}
              onChange={(text) => setValues((v) => ({ ...v, [f]: text }))}
              onBlur={() => blur(f)}
            />
          ))}
        </div>
        <SaveActions pending={save.isPending} />
      </section>
    </form>
  );
}
