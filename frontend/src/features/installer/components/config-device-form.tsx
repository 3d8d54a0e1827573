import type { FormEvent } from 'react';
import type { DeviceSearchAnswer } from '@shared/api/actions/installer';
import { PACKAGES, type Package } from '@shared/entities/farm';
import { Field } from './field';

/** The Device tab's fields: what the search looks up and what Submit Device Changes stores. */
export interface ConfigDevice {
  readonly imei: string;
  readonly supplyNumber: string;
  readonly variant: Package;
  readonly lowConnectivity: boolean;
}

interface Props {
  readonly value: ConfigDevice;
  /** What the last search found the unit by: that field is then read-only (operator §5). */
  readonly searchedBy: DeviceSearchAnswer['key'] | undefined;
  readonly searchProblem: string | undefined;
  readonly onChange: (patch: Partial<ConfigDevice>) => void;
  readonly onSearch: () => void;
  /** None until a search has found a unit: the button is disabled. */
  readonly onSubmit: (() => void) | undefined;
}

/** The Device tab of Installer Vat Settings: search by IMEI or supply number, then change the unit's farm settings. */
export function ConfigDeviceForm({ value, searchedBy, searchProblem, onChange, onSearch, onSubmit }: Props) {
  const search = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <form className="installer__grid" onSubmit={search} noValidate aria-label="Device">
      <Field label="IMEI" problem={searchProblem}>
        {(a) => <input {...a} type="text" inputMode="numeric" value={value.imei} readOnly={searchedBy === 'farm'} onChange={(e) => onChange({ imei: e.target.value })} />}
      </Field>
      <Field label="Supply Number" problem={undefined}>
        {(a) => <input {...a} type="text" value={value.supplyNumber} readOnly={searchedBy === 'imei'} placeholder="e.g. FON12345" onChange={(e) => onChange({ supplyNumber: e.target.value.toUpperCase() })} />}
      </Field>
      <Field label="Product Variant" problem={undefined}>
        {(a) => (
          <select {...a} value={value.variant} onChange={(e) => onChange({ variant: e.target.value as Package })}>
            {PACKAGES.map((pkg) => (
              <option key={pkg}>{pkg}</option>
            ))}
          </select>
        )}
      </Field>
      <label className="installer__check">
        <input type="checkbox" checked={value.lowConnectivity} onChange={(e) => onChange({ lowConnectivity: e.target.checked })} />
        Select If Low Connectivity Install
      </label>
      <div className="installer__buttons">
        <button type="submit" className="button">
          Search
        </button>
        <button type="button" className="button button--primary" disabled={!onSubmit} onClick={onSubmit}>
          Submit Device Changes
        </button>
      </div>
    </form>
  );
}
