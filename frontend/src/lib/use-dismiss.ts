import { useEffect, useRef, type RefObject } from 'react';

/**
 * While `open`, closes a popup (a menu, a popover) on Escape or on a pointer press outside
 * `root`. `onEscape` runs after an Escape close (a menu puts focus back on its button). The
 * callbacks may be new on every render: the listeners call the latest ones.
 */
export const useDismiss = (root: RefObject<HTMLElement | null>, open: boolean, close: () => void, onEscape?: () => void): void => {
  const latest = useRef({ close, onEscape });
  latest.current = { close, onEscape };
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) latest.current.close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      latest.current.close();
      latest.current.onEscape?.();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, root]);
};
