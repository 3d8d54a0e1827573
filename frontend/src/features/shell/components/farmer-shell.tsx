import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation, useMatches, useNavigate } from 'react-router-dom';
import type { Farm } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';
import { useConfirm } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { ApiError } from '../../../lib/api-error';
import { signOutUser } from '../../../lib/auth-session';
import { useRouteNoAccess } from '../../../lib/no-access';
import { reloadPage } from '../../../lib/page-reload';
import { currentUserQuery, type CurrentUserAnswer } from '../api/current-user';
import { useWebConfig } from '../../../lib/use-web-config';
import { herdUrl as herdUrlOf, isFleetOperator, menuItems } from '../utils/menu';
import { isFarmOptional } from '../utils/farm-optional';
import { chooseFarm, readSelectedFarm, writeSelectedFarm } from '../utils/selected-farm';
import { FarmSelector } from './farm-selector';
import { Icon } from './icons';
import { SIDE_MENU_ID, SideMenu } from './side-menu';
import { UserMenu } from './user-menu';
import './farmer-shell.css';
import { SideMenuToggle } from '../../../components/side-menu-toggle';

/** The operators' search loads with their first shell, never with a farmer's. */
const OperatorSearch = lazy(async () => ({ default: (await import('./operator-search')).OperatorSearch }));
/** The help player loads when it is first opened. */
const HelpPlayer = lazy(async () => ({ default: (await import('./help-player')).HelpPlayer }));

const LOGOUT_TITLE = 'Are you sure you want to logout?';
const LOGOUT_BODY = 'Once you quit, you will need to sign in again to use the service.';

/** What the shell hands its screens through `useOutletContext()`. */
export interface FarmerShellContext {
  readonly user: User;
  readonly farms: readonly Farm[];
  /**
   * The selected farm (farmer §4): always one of `farms`. Undefined only on the screens that work
   * without a farm (route handle FARM_OPTIONAL, utils/farm-optional.ts) and, for a herd user, on the pages the §6 rule
   * keeps them on; every other screen is reached only with a farm.
   */
  readonly farm: Farm | undefined;
  readonly organization: NonNullable<CurrentUserAnswer['organization']> | null;
  /** The herd site's token link, when the herd rule holds (farmer §2.2, §6). */
  readonly herdUrl: string | undefined;
  readonly selectFarm: (farmId: string) => void;
}

/** Phones get the menu as a drawer, closed at first; wider screens a column, open at first. */
const WIDE_QUERY = '(min-width: 960px)';
const isWide = (): boolean => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE_QUERY).matches : true);

/** Where the shell must send a visitor who is not signed in, or null. */
const loginRedirect = (answer: CurrentUserAnswer | undefined, error: ApiError | null, here: string): string | null => {
  if (error?.isUnauthorized) return paths.login.to(here);
  if (answer && !answer.user) return paths.login.to(here);
  return null;
};

/** The signed-in farmer's shell (farmer §2.2): top bar, left menu, farm selector; screens render inside. */
export function FarmerShell() {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const routeNoAccess = useRouteNoAccess();
  const farmOptional = useMatches().some((match) => isFarmOptional(match.handle));
  const herdSiteUrl = useWebConfig()?.herdSiteUrl;
  const [storedFarmId, setStoredFarmId] = useState(() => readSelectedFarm());
  const [menuOpen, setMenuOpen] = useState(isWide);
  const [helpOpen, setHelpOpen] = useState(false);
  /** The §6 rule keeps a user without farms on this page (a herd user on the module dashboard). */
  const [stayWithoutFarm, setStayWithoutFarm] = useState<string | null>(null);

  // A 403 is routed below without a 'Server Error!' notice; anything else is shown as usual.
  const onError = useCallback(
    (error: ApiError) => {
      if (error.status !== 403) snackbar.show(error.userMessage, 'error');
    },
    [snackbar],
  );
  const query = useQuery(currentUserQuery(client, storedFarmId, onError));
  // The shell and its screen render from a deferred copy of the answer: the query's update
  // is synchronous, so rendering the whole shell from it was one long task; React renders the
  // deferred copy in slices that give the main thread back every few milliseconds.
  const answer = useDeferredValue(query.data);
  const error = query.error instanceof ApiError ? query.error : null;
  const here = `${location.pathname}${location.search}`;
  const redirect = loginRedirect(answer, error, here);
  const farm = answer ? chooseFarm(answer.listFarm, storedFarmId) : undefined;
  const herdUrl = answer?.user ? herdUrlOf(answer.user, herdSiteUrl) : undefined;
  // A signed-in account the farmer screens cannot serve: no profile (403), or no farm linked on a
  // screen that needs one. Routed as an unauthorized event (farmer §6): by role, herd rule included.
  const noAccess = !redirect && (error?.status === 403 || (answer?.user && !farm && !farmOptional) === true);
  const staying = stayWithoutFarm === location.pathname;

  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect, navigate]);

  useEffect(() => {
    if (!noAccess || staying) return;
    let live = true;
    const path = location.pathname;
    void routeNoAccess(error ? {} : { herdLink: herdUrl }).then((outcome) => {
      if (live && outcome === 'stay') setStayWithoutFarm(path);
    });
    return () => {
      live = false;
    };
  }, [noAccess, staying, error, herdUrl, location.pathname, routeNoAccess]);

  // None stored, or not among the user's farms: store the first (farmer §4). A valid one is
  // written again once per visit: browsers cap cookie lifetimes (Chromium at 400 days) below
  // the spec's 100 years, so each visit restarts the clock.
  const cookieRenewed = useRef(false);
  useEffect(() => {
    if (!farm || (farm._id === storedFarmId && cookieRenewed.current)) return;
    cookieRenewed.current = true;
    writeSelectedFarm(farm._id);
    setStoredFarmId(farm._id);
  }, [farm, storedFarmId]);

  useEffect(() => {
    if (!menuOpen || isWide()) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  /** Every loaded screen fetches again (the config is fixed for the session). */
  const reload = useCallback(
    () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'web-config' }),
    [queryClient],
  );

  /** Stores the farm and reloads the page (farmer §2.2): every screen starts afresh on the new farm. */
  const selectFarm = useCallback((farmId: string) => {
    writeSelectedFarm(farmId);
    reloadPage();
  }, []);

  const logout = () =>
    confirm({
      title: LOGOUT_TITLE,
      body: LOGOUT_BODY,
      onCancel: () => {},
      onOk: () => {
        // Leave the shell before clearing the cache: a mounted user query would refetch without a token.
        void signOutUser()
          .then(() => navigate(paths.login.to(), { replace: true }))
          .then(() => queryClient.clear());
      },
    });

  if (redirect || (noAccess && !staying)) return null;
  if (!answer?.user) {
    if (query.isError) {
      return (
        <main className="page-message" role="alert">
          <h1>Your account could not be loaded</h1>
          <p className="page-message__detail">Check your connection and try again.</p>
          <button type="button" className="button button--primary" onClick={() => void query.refetch()}>
            Try again
          </button>
        </main>
      );
    }
    return (
      <main className="page-message" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }

  const { user, listFarm, organization = null } = answer;
  const context: FarmerShellContext = { user, farms: listFarm, farm, organization, herdUrl, selectFarm };
  // Demo accounts never see the group link (farmer §6).
  const groupTo = organization && !user.is_demo ? paths.group.to(organization._id) : undefined;
  const closeDrawer = () => {
    if (!isWide()) setMenuOpen(false);
  };

  return (
    <div className={`shell${menuOpen ? ' shell--menu-open' : ''}`}>
      <header className="topbar">
        <SideMenuToggle className="topbar__icon" open={menuOpen} menuId={SIDE_MENU_ID} onToggle={() => setMenuOpen((open) => !open)}>
          <Icon name="menu" />
        </SideMenuToggle>
        <Link className="topbar__brand" to={paths.moduleDashboard.to()}>
          Vat-Man
        </Link>
        <span className="topbar__spacer" />
        {isFleetOperator(user.role) && (
          <Suspense fallback={null}>
            <OperatorSearch role={user.role} />
          </Suspense>
        )}
        {groupTo && (
          <Link className="topbar__icon" to={groupTo} aria-label="Group" title="Group">
            <Icon name="group" />
          </Link>
        )}
        <button type="button" className="topbar__icon" aria-label="Refresh" title="Refresh" onClick={() => void reload()}>
          <Icon name="refresh" />
        </button>
        <UserMenu user={user} onLogout={logout} onHelp={() => setHelpOpen(true)} />
      </header>
      <div className="shell__body">
        {menuOpen && (
          <>
            <div className="shell__backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />
            <SideMenu items={menuItems(user.role, herdUrl)} onNavigate={closeDrawer} />
          </>
        )}
        <main className="shell__main">
          <div className="shell__toolbar">
            {farm && <FarmSelector farms={listFarm} selected={farm} isDemo={user.is_demo} onSelect={selectFarm} />}
          </div>
          <Outlet context={context} />
        </main>
      </div>
      {helpOpen && (
        <Suspense fallback={null}>
          <HelpPlayer onClose={() => setHelpOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
