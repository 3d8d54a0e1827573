import { NavLink } from 'react-router-dom';
import type { MenuItem } from '../utils/menu';

export const SIDE_MENU_ID = 'shell-side-menu';

/** The left menu (farmer §2.2): a column on wide screens, a drawer on phones. */
export function SideMenu({ items, onNavigate }: { readonly items: readonly MenuItem[]; readonly onNavigate: () => void }) {
  return (
    <nav id={SIDE_MENU_ID} className="side-menu" aria-label="Main menu">
      <ul className="side-menu__list">
        {items.map((item) => (
          <li key={item.label}>
            {item.external ? (
              <a className="side-menu__link" href={item.to} target="_blank" rel="noopener noreferrer" onClick={onNavigate}>
                {item.label}
              </a>
            ) : (
              <NavLink className="side-menu__link" to={item.to} onClick={onNavigate}>
                {item.label}
              </NavLink>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
