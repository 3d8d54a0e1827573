import { capacitiesOf, vatLabel } from '@shared/installer/height-table';
import { vatHeight } from '../utils/new-install-form';
import type { ConfigVatForm } from '../utils/config-vat-form';
import { Field } from './field';
import { VatShapeFields } from './vat-shape-fields';

interface Props {
  readonly n: number;
  readonly value: ConfigVatForm;
  /** Added on this visit (not stored yet): it can be removed again. */
  readonly adding: boolean;
  readonly problem: (field: string) => string | undefined;
  readonly onChange: (patch: Partial<ConfigVatForm>) => void;
  readonly onRemove: () => void;
  readonly onReset: () => void;
  readonly onSubmit: () => void;
}

/** One Vat tab of Installer Vat Settings (operator §2, §5): the vat's shape, Auto, and the radar. */
export function ConfigVatTab({ n, value: v, adding, problem: p, onChange, onRemove, onReset, onSubmit }: Props) {
  return (
    <div className="installer__vat">
      <div className="installer__buttons">
        {adding && (
          <button type="button" className="button" onClick={onRemove}>
            Remove Vat {n}
          </button>
        )}
        <button type="button" className="button" onClick={onReset}>
          Reset Changes
        </button>
      </div>
      <div className="installer__grid">
        <VatShapeFields
          value={v}
          height={vatHeight(v)}
          capacities={capacitiesOf(Number(v.diameter), 'config').map(vatLabel)}
          problem={p}
          onChange={onChange}
          onManual={(manual) => onChange({ manual, height: vatHeight(v) })}
        />
        <label className="installer__check">
          <input type="checkbox" checked={v.auto} onChange={(e) => onChange({ auto: e.target.checked })} />
          Select if this Vat has Vat-Man Auto
        </label>
        <label className="installer__check">
          <input type="checkbox" role="switch" checked={v.manualRadar} onChange={(e) => onChange({ manualRadar: e.target.checked })} />
          Manual Radar Input
        </label>
        <Field label="Radar Serial" problem={p('radarSerial')}>
          {(a) => <input {...a} type="text" value={v.radarSerial} onChange={(e) => onChange({ radarSerial: e.target.value })} />}
        </Field>
        {v.manualRadar ? (
          <Field label="Wedge Height" problem={p('wedgeHeight')}>
            {(a) => <input {...a} type="number" min={0} value={v.wedgeHeight} onChange={(e) => onChange({ wedgeHeight: e.target.value })} />}
          </Field>
        ) : (
          <Field label="Radar O'Clock" problem={p('oclock')}>
            {(a) => <input {...a} type="number" min={0} max={12} value={v.oclock} onChange={(e) => onChange({ oclock: e.target.value })} />}
          </Field>
        )}
      </div>
      <img className="installer__clock" src="/installer/radar-clock.svg" alt="Radar clock positions" width={200} height={200} />
      <div className="installer__buttons">
        <button type="button" className="button button--primary" onClick={onSubmit}>
          Submit Vat {n} Changes
        </button>
      </div>
    </div>
  );
}
