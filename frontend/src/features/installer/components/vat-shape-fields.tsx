import { VAT_DIAMETERS } from '@shared/installer/height-table';
import { Field } from './field';

/** The fields both installer vat forms share (New Install's vat tabs and Installer Config's). */
interface VatShape {
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

/** A vat figure: typed when the vat is entered by hand, else chosen from the height table's values. */
function FigureField({
  label,
  problem,
  manual,
  value,
  choices,
  onType,
  onChoose,
}: {
  readonly label: string;
  readonly problem: string | undefined;
  readonly manual: boolean;
  readonly value: string;
  readonly choices: readonly (string | number)[];
  readonly onType: (value: string) => void;
  readonly onChoose: (value: string) => void;
}) {
  return (
    <Field label={label} problem={problem}>
      {(a) =>
        manual ? (
          <input {...a} type="number" min={0} value={value} onChange={(e) => onType(e.target.value)} />
        ) : (
          <select {...a} value={value} onChange={(e) => onChoose(e.target.value)}>
            <option value="">Choose</option>
            {choices.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        )
      }
    </Field>
  );
}

/** Manual Vat Input, Diameter, Capacity, Height, Manufacturer and Serial (operator §3, §8). */
export function VatShapeFields({ value: v, height, capacities, problem, onChange, onManual }: Props) {
  return (
    <>
      <label className="installer__check">
        <input type="checkbox" role="switch" checked={v.manual} onChange={(e) => onManual(e.target.checked)} />
        Manual Vat Input
      </label>
      <FigureField label="Diameter" problem={problem('diameter')} manual={v.manual} value={v.diameter} choices={VAT_DIAMETERS} onType={(diameter) => onChange({ diameter })} onChoose={(diameter) => onChange({ diameter, capacity: '' })} />
      <FigureField label="Capacity" problem={problem('capacity')} manual={v.manual} value={v.capacity} choices={capacities} onType={(capacity) => onChange({ capacity })} onChoose={(capacity) => onChange({ capacity })} />
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
