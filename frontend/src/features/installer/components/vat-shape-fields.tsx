import { VAT_DIAMETERS } from '@shared/installer/height-table';
import { Field } from './field';

/** The fields both installer vat forms share (New Install's vat tabs and Installer Config's). */
export interface VatShape {
  readonly manual: boolean;
  readonly diameter: string;
  readonly capacity: string;
  readonly manufacturer: string;
  readonly serial: string;
}

interface Props {
  readonly value: VatShape;
  /** The Height shown: the height table's for the chosen vat, or the typed one when manual. */
  readonly height: string;
  /** The Capacity choices for the chosen diameter (labels as each form stores them). */
  readonly capacities: readonly string[];
  readonly problem: (name: 'diameter' | 'capacity' | 'height') => string | undefined;
  readonly onChange: (patch: Partial<VatShape> & { readonly height?: string }) => void;
  /** Manual Vat Input switched: each form decides what the Height becomes. */
  readonly onManual: (manual: boolean) => void;
}

/** Manual Vat Input, Diameter, Capacity, Height, Manufacturer and Serial (operator §3, §8). */
export function VatShapeFields({ value: v, height, capacities, problem, onChange, onManual }: Props) {
  return (
    <>
      <label className="installer__check">
        <input type="checkbox" role="switch" checked={v.manual} onChange={(e) => onManual(e.target.checked)} />
        Manual Vat Input
      </label>
      <Field label="Diameter" problem={problem('diameter')}>
        {(a) =>
          v.manual ? (
            <input {...a} type="number" min={0} value={v.diameter} onChange={(e) => onChange({ diameter: e.target.value })} />
          ) : (
            <select {...a} value={v.diameter} onChange={(e) => onChange({ diameter: e.target.value, capacity: '' })}>
              <option value="">Choose</option>
              {VAT_DIAMETERS.map((d) => (
                <option key={d}>{d}</option>
              ))}
            </select>
          )
        }
      </Field>
      <Field label="Capacity" problem={problem('capacity')}>
        {(a) =>
          v.manual ? (
            <input {...a} type="number" min={0} value={v.capacity} onChange={(e) => onChange({ capacity: e.target.value })} />
          ) : (
            <select {...a} value={v.capacity} onChange={(e) => onChange({ capacity: e.target.value })}>
              <option value="">Choose</option>
              {capacities.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          )
        }
      </Field>
      <Field label="Height" problem={problem('height')}>
        {(a) => <input {...a} type="number" min={0} value={height} readOnly={!v.manual} onChange={(e) => onChange({ height: e.target.value })} />}
      </Field>
      <Field label="Manufacturer" problem={undefined}>
        {(a) => <input {...a} type="text" value={v.manufacturer} onChange={(e) => onChange({ manufacturer: e.target.value })} />}
      </Field>
      <Field label="Serial" problem={undefined}>
        {(a) => <input {...a} type="text" value={v.serial} onChange={(e) => onChange({ serial: e.target.value })} />}
      </Field>
    </>
  );
}
