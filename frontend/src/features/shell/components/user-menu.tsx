import { Link } from 'react-router-dom';
import type { User } from '@shared/entities/user';
import { paths } from '../../../config/paths';
import { useMenu } from '../../../lib/use-menu';

/** The top bar's user menu (farmer §2.2): Profile, Notification Settings, Help (the help player, §9), Logout. */
export function UserMenu({ user, onLogout, onHelp }: { readonly user: Pick<User, 'firstName' | 'lastName'>; readonly onLogout: () => void; readonly onHelp: () => void }) {
  const { open, close, menuId, rootRef, buttonProps } = useMenu();
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase() || '?';

  return (
    <div className="user-menu" ref={rootRef}>
      <button className="user-menu__button" {...buttonProps}>
        {/* The name comes from this text, not an aria-label: a label the visible initials are not part of fails label-in-name (WCAG 2.5.3). */}
        <span className="visually-hidden">{`Account: ${user.firstName} ${user.lastName}`}</span>
        <span className="user-menu__avatar" aria-hidden="true">
          {initials}
        </span>
        <span className="user-menu__name" aria-hidden="true">
          {user.firstName}
        </span>
      </button>
      {open && (
        <ul id={menuId} className="user-menu__list" role="menu" aria-label="Account">
          <li role="none">
            <Link role="menuitem" className="user-menu__item" to={paths.profile.to()} onClick={close}>
              Profile
            </Link>
          </li>
          <li role="none">
            <Link role="menuitem" className="user-menu__item" to={paths.userSettings.to()} onClick={close}>
              Notification Settings
            </Link>
          </li>
          <MenuAction label="Help" onPick={() => { close(); onHelp(); }} />
          <MenuAction label="Logout" onPick={() => { close(); onLogout(); }} />
        </ul>
      )}
    </div>
  );
}

/** A menu item that acts rather than navigates (the menu closes first). */
function MenuAction({ label, onPick }: { readonly label: string; readonly onPick: () => void }) {
  return (
    <li role="none">
      <button type="button" role="menuitem" className="user-menu__item" onClick={onPick}>
        {label}
      </button>
    </li>
  );
}
