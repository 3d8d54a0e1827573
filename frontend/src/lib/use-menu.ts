import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useDismiss } from './use-dismiss';

/**
 * The state of a menu button (the WAI-ARIA menu button pattern) in one place: the toggle's ARIA
 * attributes (`buttonProps`, spread on the button), the first item focused when the menu opens,
 * closed by Escape (focus back on the button) or by a press outside `rootRef`.
 */
export const useMenu = <Root extends HTMLElement = HTMLDivElement>() => {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<Root>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (!open) return;
    rootRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  useDismiss(rootRef, open, close, () => buttonRef.current?.focus());

  const buttonProps = {
    ref: buttonRef,
    type: 'button',
    'aria-haspopup': 'menu',
    'aria-expanded': open,
    'aria-controls': open ? menuId : undefined,
    onClick: () => setOpen((value) => !value),
  } as const;
  return { open, close, menuId, rootRef, buttonRef, buttonProps };
};
