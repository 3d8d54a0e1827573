import type { ReactNode } from 'react';

/**
 * A wide table's sideways-scrolling box (a phone's width): a named region in the tab order, so a
 * keyboard can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollRegion({ className, label, children }: { readonly className: string; readonly label: string; readonly children: ReactNode }) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
