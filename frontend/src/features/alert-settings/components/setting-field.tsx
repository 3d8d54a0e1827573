import { useId } from 'react';
import type { FieldLabel } from '../utils/labels';

interface SettingFieldProps {
  readonly name: string;
  readonly text: FieldLabel;
  readonly range: { readonly min: number; readonly max: number };
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Clamps the value (farmer §5 "clamping on blur"). */
  readonly onBlur: () => void;
}

/** One numeric setting: free text (so a wrong entry reaches the save check and its message), decimal keypad on phones. */
export function SettingField({ name, text, range, value, onChange, onBlur }: SettingFieldProps) {
  const id = useId();
  return (
    <div className="form__field setting-field">
      <label htmlFor={id}>
        {text.label} ({text.unit})
      </label>
      <input
        id={id}
        name={name}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        aria-describedby={`${id}-range`}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <span id={`${id}-range`} className="setting-field__range">
        {range.min} to {range.max} {text.unit}
      </span>
    </div>
  );
}
