import { useId, useRef, useState, type ReactNode } from 'react';
import { useDismiss } from '../../../lib/use-dismiss';

export interface Choice<T extends string> {
  readonly value: T;
  readonly label: string;
  readonly hint?: string;
}

/**
 * A button opening a small menu of choices (operator §2: the pencil's role menu, the herdsman
 * menu). Picking one closes the menu and calls `onPick`; Escape or a press outside closes it.
 */
export function ChoiceMenu<T extends string>({
  label,
  button,
  choices,
  current,
  onPick,
  disabled,
}: {
  readonly label: string;
  readonly button: ReactNode;
  readonly choices: readonly Choice<T>[];
  readonly current: T;
  readonly onPick: (value: T) => void;
  readonly disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useDismiss(root, open, () => setOpen(false), () => toggle.current?.focus());
  return (
    <span className="choice-menu" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="choice-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        {button}
      </button>
      {open && (
        <span className="choice-menu__list" role="menu" id={menuId} aria-label={label}>
          {choices.map((c) => (
            <button
              key={c.value}
              type="button"
              role="menuitemradio"
              aria-checked={c.value === current}
              onClick={() => {
                setOpen(false);
                onPick(c.value);
              }}
            >
              <span className="choice-menu__label">{c.label}</span>
              {c.hint && <span className="choice-menu__hint">{c.hint}</span>}
            </button>
          ))}
        </span>
      )}
    </span>
  );
}
