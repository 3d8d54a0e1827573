import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useConfirm } from '../../../components/confirm-dialog';
import { paths } from '../../../config/paths';
import { signOutUser } from '../../../lib/auth-session';
import { useMenu } from '../../../lib/use-menu';

const LOGOUT_TITLE = 'Are you sure you want to logout?';
/** The partner shells' wording (operator §9 Partner and interface), not the farmer shell's. */
const LOGOUT_BODY = 'Once you quit, you will need to sign in again to use the DTS service.';

/** The top bar's user icon and its menu: '{firstName} Profile' and 'Logout' (operator §2 Partner shells). */
export function UserMenu({ firstName, profilePath }: { readonly firstName: string; readonly profilePath: string }) {
  const { open, close, menuId, rootRef, buttonProps } = useMenu();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const queryClient = useQueryClient();


  const logout = async () => {
    await signOutUser();
    // Leave the shell first: clearing the cache under it would refetch the user without a session.
    await navigate(paths.login.to(), { replace: true });
    queryClient.clear();
  };

  const askLogout = () => {
    close();
    confirm({ title: LOGOUT_TITLE, body: LOGOUT_BODY, onOk: () => void logout(), onCancel: () => undefined });
  };

  return (
    <div className="partner-user-menu" ref={rootRef}>
      <button className="partner-icon-button" aria-label="Account" {...buttonProps}>
        <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 4a3.5 3.5 0 1 1 0 7 3.5 3.5 0 0 1 0-7zm0 14a8 8 0 0 1-6.2-2.95C6.9 15.3 9.3 14.5 12 14.5s5.1.8 6.2 2.55A8 8 0 0 1 12 20z"
          />
        </svg>
      </button>
      {open && (
        <div id={menuId} className="partner-user-menu__list" role="menu" aria-label="Account">
          <Link className="partner-user-menu__item" role="menuitem" to={profilePath} onClick={() => close()}>
            {firstName} Profile
          </Link>
          <button type="button" className="partner-user-menu__item" role="menuitem" onClick={askLogout}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
