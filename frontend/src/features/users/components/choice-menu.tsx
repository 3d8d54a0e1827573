import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useMenu } from '../../../lib/use-menu';

export interface Choice<T extends string> {
  readonly value: T;
  readonly label: string;
  readonly hint?: string;
}

/**
 * A button opening a small menu of choices (operator §2: the pencil's role menu, the herdsman
 * menu). Picking one closes the menu and calls `onPick`; Escape or a press outside closes it.
 * The menu is placed on the viewport under its button (above it when there is no room below),
 * so a table's scrolling box does not clip it; a scroll or resize closes it.
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
  const { open, close, menuId, rootRef: root, buttonRef: toggle, buttonProps } = useMenu<HTMLSpanElement>();
  const list = useRef<HTMLSpanElement>(null);
  const [place, setPlace] = useState<CSSProperties>();
  useLayoutEffect(() => {
    if (!open || !toggle.current || !list.current) return setPlace(undefined);
    const button = toggle.current.getBoundingClientRect();
    const height = list.current.offsetHeight;
    const below = button.bottom + height <= window.innerHeight || button.top < height;
    setPlace({ position: 'fixed', right: Math.max(0, document.documentElement.clientWidth - button.right), ...(below ? { top: button.bottom } : { top: button.top - height }) });
  }, [open, toggle]);
  useEffect(() => {
    if (!open) return;
    const closeOnMove = (event: Event) => {
      if (!list.current?.contains(event.target as Node)) close();
    };
    window.addEventListener('scroll', closeOnMove, true);
    window.addEventListener('resize', closeOnMove);
    return () => {
      window.removeEventListener('scroll', closeOnMove, true);
      window.removeEventListener('resize', closeOnMove);
    };
  }, [open, close]);
  return (
    <span className="choice-menu" ref={root}>
      <button className="choice-menu__button" aria-label={label} disabled={disabled} {...buttonProps}>
        {button}
      </button>
      {open && (
        <span ref={list} className="choice-menu__list" style={place} role="menu" id={menuId} aria-label={label}>
          {choices.map((c) => (
            <button
              key={c.value}
              type="button"
              role="menuitemradio"
              aria-checked={c.value === current}
              onClick={() => {
                close();
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
