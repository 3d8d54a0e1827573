import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchAuthSession, getCurrentUser, signOut } from 'aws-amplify/auth';
import { createPortal } from 'react-dom';
import { createMemoryRouter, matchRoutes, RouterProvider, useOutletContext } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@shared/roles';
import { AppProvider } from '../../../app/provider';
import { routes } from '../../../app/routes';
import { paths } from '../../../config/paths';
import { build } from '../../../testing/build';
import { fakeApi, type FakeAnswer } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { PartnerShell, type PartnerShellContext } from './partner-shell';
import { expectMenuToggleHidesMenu } from '../../../testing/side-menu';

vi.mock('aws-amplify/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof import('aws-amplify/auth')>()),
  fetchAuthSession: vi.fn(),
  getCurrentUser: vi.fn(),
  signOut: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(fetchAuthSession).mockReset().mockResolvedValue({ tokens: undefined } as never);
  vi.mocked(getCurrentUser).mockReset().mockRejectedValue(new Error('UserUnAuthenticatedException'));
  vi.mocked(signOut).mockReset().mockResolvedValue(undefined);
});

const userAnswer = (role: Role, firstName = 'Mere') => ({ user: build.user({ role, firstName }), listFarm: [], organization: null });

/** The whole app at `path`, its API answering USER_ONE_GET_BY_TOKEN with `answer`. */
const open = (path: string, answer: () => FakeAnswer | Promise<FakeAnswer>) => {
  const api = fakeApi({ USER_ONE_GET_BY_TOKEN: answer, WESTLANDS_FARMS: () => [] });
  return { ...renderApp(path, { apiClient: testApiClient(api.fetch) }), api };
};

const menuLinks = () => within(screen.getByRole('navigation', { name: 'Main menu' })).queryAllByRole('link');

describe('partner shell: loading the user', () => {
  it('renders nothing but the progress bar until the user has loaded', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const { api } = open('/dts/fonterra/milkquality', () => new Promise<FakeAnswer>((resolve) => (answer = resolve)));
    await waitFor(() => expect(api.callsOf('USER_ONE_GET_BY_TOKEN')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Loading...')).not.toBeInTheDocument());
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();

    await act(async () => answer(userAnswer('Milk Quality')));
    expect(await screen.findByRole('heading', { name: 'Milk Quality' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent('Vat-Man');
    expect(await screen.findByRole('form', { name: 'Milk quality data' })).toBeInTheDocument();
  });

  it('a 401 signs out and goes to the login page carrying the current path', async () => {
    // The session lookup never answers, so only the shell itself can move the app.
    vi.mocked(fetchAuthSession).mockReturnValue(new Promise(() => undefined));
    const { router } = open('/dts/fonterra/milkquality?vat=2', () => ({ status: 401, body: { message: 'Unauthorized' } }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login/%2Fdts%2Ffonterra%2Fmilkquality%3Fvat%3D2'));
    expect(signOut).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('another failure offers to try again, and a retry that succeeds shows the shell', async () => {
    let fail = true;
    open('/dts/westlands/data', () => (fail ? { status: 500, body: { message: 'Server Error!' } } : userAnswer('Westlands')));
    expect(await screen.findByText('Your account could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Westlands Data' })).toBeInTheDocument();
  });
});

describe('partner shell: menus by role (operator §6)', () => {
  it.each<Role>(['Milk Quality', 'Admin'])('Milk Quality area, %s: Milk Quality and a divider', async (role) => {
    open('/dts/fonterra/milkquality', () => userAnswer(role));
    await screen.findByRole('heading', { name: 'Milk Quality' });
    expect(menuLinks().map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['Milk Quality', '/dts/fonterra/milkquality']]);
    expect(within(screen.getByRole('navigation')).getByRole('separator')).toBeInTheDocument();
  });

  it.each<Role>(['Westlands', 'Admin'])('Westlands area, %s: Westlands Data', async (role) => {
    open('/dts/westlands/data', () => userAnswer(role));
    await screen.findByRole('heading', { name: 'Westlands Data' });
    expect(menuLinks().map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['Westlands Data', '/dts/westlands/data']]);
  });

  it.each<[string, Role]>([
    ['/dts/fonterra/milkquality', 'User'],
    ['/dts/fonterra/milkquality', 'Westlands'],
    ['/dts/fonterra/milkquality', 'Installer'],
    ['/dts/westlands/data', 'User'],
    ['/dts/westlands/data', 'Milk Quality'],
  ])('%s, %s: an empty menu', async (path, role) => {
    open(path, () => userAnswer(role));
    await screen.findByRole('banner');
    expect(menuLinks()).toEqual([]);
    expect(within(screen.getByRole('navigation')).queryByRole('separator')).not.toBeInTheDocument();
  });

  it("uses the URL's dairy company for the menu and the profile link", async () => {
    const { user } = open('/dts/synlait/milkquality', () => userAnswer('Milk Quality'));
    await screen.findByRole('heading', { name: 'Milk Quality' });
    expect(menuLinks()[0]).toHaveAttribute('href', '/dts/synlait/milkquality');
    await user.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.getByRole('menuitem', { name: 'Mere Profile' })).toHaveAttribute('href', '/dts/synlait/profile');
  });

  it('the menu toggle collapses and expands the side bar', async () => {
    const { user } = open('/dts/westlands/data', () => userAnswer('Westlands'));
    await screen.findByRole('heading', { name: 'Westlands Data' });
    await expectMenuToggleHidesMenu(user);
  });
});

describe('partner shell: user menu', () => {
  it.each([
    ['/dts/fonterra/milkquality', 'Milk Quality' as Role, '/dts/fonterra/profile'],
    ['/dts/westlands/data', 'Westlands' as Role, '/dts/westlands/profile'],
  ])("%s: '{firstName} Profile' opens the area's profile page", async (path, role, profile) => {
    const { user, router } = open(path, () => userAnswer(role, 'Hemi'));
    await screen.findByRole('banner');
    await user.click(screen.getByRole('button', { name: 'Account' }));
    await user.click(screen.getByRole('menuitem', { name: 'Hemi Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(profile));
    expect((await screen.findAllByRole('heading', { name: 'Profile' })).length).toBeGreaterThan(0);
    expect(screen.queryByText(/Coming soon/)).not.toBeInTheDocument();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('Escape closes the user menu', async () => {
    const { user } = open('/dts/westlands/data', () => userAnswer('Westlands'));
    await screen.findByRole('banner');
    await user.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('Logout asks first; Cancel stays signed in', async () => {
    const { user, router } = open('/dts/fonterra/milkquality', () => userAnswer('Milk Quality'));
    await screen.findByRole('banner');
    await user.click(screen.getByRole('button', { name: 'Account' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to logout?' });
    expect(dialog).toHaveAccessibleDescription('Once you quit, you will need to sign in again to use the DTS service.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(signOut).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/dts/fonterra/milkquality');
  });

  it('Logout then OK signs out of Amplify and goes to /dts/login', async () => {
    const { user, router } = open('/dts/westlands/data', () => userAnswer('Westlands'));
    await screen.findByRole('banner');
    await user.click(screen.getByRole('button', { name: 'Account' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login'));
    expect(signOut).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('partner routes: /dts/westlands/… belongs to the Westlands area', () => {
  const leaf = (path: string) => matchRoutes(routes, path)?.at(-1)?.route.path;

  it.each([
    ['/dts/westlands/data', paths.westlandsArea.pattern],
    ['/dts/westlands/profile', paths.westlandsProfile.pattern],
    ['/dts/westlands/profile/1', paths.westlandsProfile.pattern],
    ['/dts/fonterra/milkquality', paths.partnerMilkQuality.pattern],
    ['/dts/fonterra/profile/2', paths.partnerProfile.pattern],
  ])('%s matches %s', (path, pattern) => {
    expect(leaf(path)).toBe(pattern);
  });

  it('/dts/westlands/profile renders in the Westlands shell', async () => {
    const { user } = open('/dts/westlands/profile', () => userAnswer('Westlands'));
    expect((await screen.findAllByRole('heading', { name: 'Profile' })).length).toBeGreaterThan(0);
    expect(menuLinks().map((a) => a.textContent)).toEqual(['Westlands Data']);
    await user.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.getByRole('menuitem', { name: 'Mere Profile' })).toHaveAttribute('href', '/dts/westlands/profile');
  });

  it('/dts/fonterra/milkquality/extra is not a partner page', async () => {
    open('/dts/fonterra/milkquality/extra', () => userAnswer('Milk Quality'));
    expect(await screen.findByText('Promotion 404')).toBeInTheDocument();
  });
});

describe('partner shell: sub-bar', () => {
  function WithControls() {
    const { subBarRight } = useOutletContext<PartnerShellContext>();
    return (
      <>
        <p>screen body</p>
        {subBarRight && createPortal(<button type="button">Download</button>, subBarRight)}
      </>
    );
  }

  it("shows the route's title on the left and a screen's controls on the right", async () => {
    const api = fakeApi({ USER_ONE_GET_BY_TOKEN: () => userAnswer('Admin') });
    const router = createMemoryRouter(
      [{ element: <PartnerShell area="westlands" />, children: [{ path: '/x', handle: { title: 'Custom Title' }, element: <WithControls /> }] }],
      { initialEntries: ['/x'] },
    );
    const { container } = render(
      <AppProvider apiClient={testApiClient(api.fetch)}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Custom Title' })).toBeInTheDocument();
    const right = container.querySelector('.partner-subbar__right');
    expect(right).not.toBeNull();
    expect(within(right as HTMLElement).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(screen.getByText('screen body')).toBeInTheDocument();
  });
});
