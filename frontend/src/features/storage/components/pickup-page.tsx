import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import { farmerActivityContracts } from '@shared/api/actions/farmer-activity';
import { toWireTime } from '@shared/api/actions/farmer-pickup';
import { isDairyCompanyFarm } from '@shared/entities/farm';
import { useConfirm } from '../../../components/confirm-dialog';
import { useApiClient } from '../../../lib/api-client-provider';
import { addPickup, type PickupFields } from '../api/storage';
import { instantOfPickerValue, pickerValue, zoneSuffix } from '../../../lib/time-format';
import type { StorageContext } from './storage-page';
import './storage.css';

type Field = 'vat' | 'datetime' | 'volume' | 'temperature';
type Values = Record<Field, string>;

const EMPTY: Values = { vat: '1', datetime: '', volume: '', temperature: '' };

/** The datetime-local value, read on the farm's clock (§9), as the §9 wire form in UTC; '' stays '' (required). */
const wireTime = (local: string, timeZone: string | undefined): string => {
  if (local === '') return '';
  const instant = instantOfPickerValue(local, timeZone);
  return Number.isNaN(instant) ? local : toWireTime(instant);
};

/**
 * /dts/pickup (farmer §2.14): Vat (default 1), Pickup Time, Volume (L), Temperature (C, optional).
 * §5: Pickup Time and Volume are required, else the fields are flagged and nothing is sent; Vat,
 * Volume and Temperature accept only values >= 0. The same schema as the server (shared) judges
 * them first. Success opens 'Pickup Submitted' and clears Pickup Time, Volume and Temperature.
 */
export function PickupPage() {
  const { farm } = useOutletContext<StorageContext>();
  const client = useApiClient();
  const confirm = useConfirm();
  const [values, setValues] = useState<Values>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const submit = useMutation({
    mutationFn: (fields: PickupFields) => addPickup(client, fields),
    onSuccess: () => {
      setValues((v) => ({ ...v, datetime: '', volume: '', temperature: '' }));
      confirm({ title: 'Pickup Submitted', body: 'The pickup has been recorded.', onOk: () => undefined, okLabel: 'Ok' });
    },
  });

  if (!farm) return null;
  if (isDairyCompanyFarm(farm.fonterra_id)) {
    return (
      <section className="page">
        <h1 className="page__title">Submit Pickup</h1>
        <p className="page__note">Submit Pickup is not offered for dairy-company farms: the dairy company reports their pickups.</p>
      </section>
    );
  }

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setProblems((p) => ({ ...p, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const fields: PickupFields = { farm_id: farm._id, vat: values.vat, datetime: wireTime(values.datetime, farm.timezone), volume: values.volume, temperature: values.temperature };
    const checked = farmerActivityContracts.ADD_PICKUP.input.safeParse({ type: farmerActivityContracts.ADD_PICKUP.type, ...fields });
    if (!checked.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setProblems(found);
      return;
    }
    setProblems({});
    submit.mutate(fields);
  };

  const field = (name: Field, label: string, input: { type: string; min?: number; step?: string; max?: string; inputMode?: 'decimal' | 'numeric' }, hint?: string) => {
    const id = `pickup-${name}`;
    return (
      <div className="form__field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          {...input}
          value={values[name]}
          onChange={set(name)}
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={[hint ? `${id}-hint` : '', problems[name] ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined}
        />
        {hint && (
          <p className="form__hint" id={`${id}-hint`}>
            {hint}
          </p>
        )}
        {problems[name] && (
          <p className="form__error" id={`${id}-problem`}>
            {problems[name]}
          </p>
        )}
      </div>
    );
  };

  // The field reads the farm's clock; an adviser in another zone is told which clock it is.
  const zone = zoneSuffix(Date.now(), farm.timezone).trim();

  return (
    <section className="page">
      <h1 className="page__title">Submit Pickup</h1>
      <form className="form pickup-form" onSubmit={onSubmit} noValidate>
        {field('vat', 'Vat', { type: 'number', min: 0, step: '1', inputMode: 'numeric' })}
        {field('datetime', 'Pickup Time', { type: 'datetime-local', max: pickerValue(Date.now(), farm.timezone) }, zone ? `The farm's time (${zone})` : undefined)}
        {field('volume', 'Volume (L)', { type: 'number', min: 0, step: 'any', inputMode: 'decimal' })}
        {field('temperature', 'Temperature (C)', { type: 'number', min: 0, step: 'any', inputMode: 'decimal' })}
        <button type="submit" className="button button--primary" disabled={submit.isPending}>
          Submit Pickup
        </button>
      </form>
    </section>
  );
}
