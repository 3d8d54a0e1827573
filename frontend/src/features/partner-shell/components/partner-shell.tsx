import { Suspense, useEffect, useId, useState } from 'react';
import { NavLink, Outlet, useLocation, useMatches, useNavigate, useParams } from 'react-router-dom';
import { MILK_QUALITY_PARTNER, paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-error';
import { signOutUser } from '../../../lib/auth-session';
import { useCurrentUser } from '../api/current-user';
import { partnerMenu, partnerProfilePath, type PartnerArea } from './partner-menu';
import { UserMenu } from './user-menu';
import './partner-shell.css';
import { SideMenuToggle } from '../../../components/side-menu-toggle';

/** Below this width the side bar overlays the page instead of sitting beside it. */
const NARROW = '(max-width: 899px)';
const isNarrow = (): boolean => window.matchMedia?.(NARROW).matches ?? false;

/** A route's `handle` may name the screen: the sub-bar's left title. */
const titleOf = (handle: unknown): string | undefined =>
  handle !== null && typeof handle === 'object' && 'title' in handle && typeof handle.title === 'string' ? handle.title : undefined;

/**
 * What the shell hands its screens through `useOutletContext()`: the sub-bar's right-hand slot,
 * for a screen to `createPortal` its own controls into (operator §2: optional right content).
 */
export interface PartnerShellContext {
  readonly subBarRight: HTMLElement | null;
}

function Logo() {
  return (
    <svg className="partner-subbar__logo" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="currentColor" />
      <path d="M16 5c-4 6-7 10-7 14a7 7 0 0 0 14 0c0-4-3-8-7-14z" fill="#fff" />
    </svg>
  );
}

/**
 * The Milk Quality and Westlands areas' own shell (operator §2 Partner shells, §4): top bar,
 * side bar with the role's menu, sub-bar with the screen's title. Nothing renders until the
 * signed-in user is loaded; a 401 signs out and goes to the login page carrying the current path.
 */
export function PartnerShell({ area }: { readonly area: PartnerArea }) {
  const { partner = MILK_QUALITY_PARTNER } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const matches = useMatches();
  const userQuery = useCurrentUser();
  const [menuOpen, setMenuOpen] = useState(() => !isNarrow());
  const [subBarRight, setSubBarRight] = useState<HTMLElement | null>(null);
  const sidebarId = useId();

  const here = `${location.pathname}${location.search}`;
  // operator §4: no user returned is signed out, like a 401.
  const unauthorized = (userQuery.error instanceof ApiError && userQuery.error.isUnauthorized) || (userQuery.data !== undefined && !userQuery.data.user);
  useEffect(() => {
    if (!unauthorized) return;
    // The server refused whatever tokens Amplify holds: drop them, or the login page (already
    // signed in → onward) and the role routing of a 401 would send the user straight back here.
    void signOutUser().then(() => navigate(paths.login.to(here), { replace: true }));
  }, [unauthorized, here, navigate]);

  if (!userQuery.data?.user) {
    // Another failure was announced in the snackbar; offer a way on rather than a blank page.
    if (userQuery.error && !unauthorized) {
      return (
        <main className="page-message">
          <p>Your account could not be loaded.</p>
          <button type="button" className="button button--primary" onClick={() => void userQuery.refetch()}>
            Try again
          </button>
        </main>
      );
    }
    return null;
  }

  const { user } = userQuery.data;
  const menu = partnerMenu(area, user.role, partner);
  const title = matches.map((match) => titleOf(match.handle)).findLast((t) => t !== undefined) ?? '';
  const closeIfOverlay = () => {
    if (isNarrow()) setMenuOpen(false);
  };

  return (
    <div className="partner-shell">
      <header className="partner-topbar">
        <SideMenuToggle className="partner-icon-button" open={menuOpen} menuId={sidebarId} onToggle={() => setMenuOpen((open) => !open)}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
          </svg>
        </SideMenuToggle>
        <p className="partner-topbar__name">Vat-Man</p>
        <UserMenu firstName={user.firstName} profilePath={partnerProfilePath(area, partner)} />
      </header>
      <div className="partner-body">
        <nav id={sidebarId} className="partner-sidebar" aria-label="Main menu" hidden={!menuOpen}>
          <ul className="partner-sidebar__list">
            {menu.map((entry, index) =>
              entry.kind === 'divider' ? (
                <li key={`divider-${index}`} role="separator" className="partner-sidebar__divider" />
              ) : (
                <li key={entry.to}>
                  <NavLink className="partner-sidebar__link" to={entry.to} end onClick={closeIfOverlay}>
                    {entry.label}
                  </NavLink>
                </li>
              ),
            )}
          </ul>
        </nav>
        {menuOpen && <div className="partner-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
        <div className="partner-main">
          <div className="partner-subbar">
            <Logo />
            <h1 className="partner-subbar__title">{title}</h1>
            <div className="partner-subbar__right" ref={setSubBarRight} />
          </div>
          <main className="partner-content">
            <Suspense fallback={<p className="partner-content__loading">Loading...</p>}>
              <Outlet context={{ subBarRight } satisfies PartnerShellContext} />
            </Suspense>
          </main>
        </div>
      </div>
    </div>
  );
}

/** /dts/{partner}/milkquality and /dts/{partner}/profile. */
export function MilkQualityShell() {
  return <PartnerShell area="milk-quality" />;
}

/** /dts/westlands/data and /dts/westlands/profile. */
export function WestlandsShell() {
  return <PartnerShell area="westlands" />;
}
