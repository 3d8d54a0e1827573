import type { ReactNode } from 'react';

/** The top bar's Menu button of a shell (farmer and partner): opens and closes the side menu it controls. */
export function SideMenuToggle({ className, open, menuId, onToggle, children }: { readonly className: string; readonly open: boolean; readonly menuId: string; readonly onToggle: () => void; readonly children: ReactNode }) {
  return (
    <button type="button" className={className} aria-label="Menu" aria-expanded={open} aria-controls={menuId} onClick={onToggle}>
      {children}
    </button>
  );
}
