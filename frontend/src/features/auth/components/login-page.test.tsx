import { screen, waitFor } from '@testing-library/react';
import { fetchAuthSession, getCurrentUser, signIn } from 'aws-amplify/auth';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../testing/render-app';
import { returnPath } from './login-page';

vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: vi.fn(() => Promise.resolve({ tokens: undefined })),
  getCurrentUser: vi.fn(),
  signIn: vi.fn(),
  signOut: vi.fn(() => Promise.resolve()),
}));

const cognitoError = (name: string, message = 'Incorrect username or password.') => Object.assign(new Error(message), { name });

beforeEach(() => {
  vi.mocked(signIn).mockReset().mockResolvedValue({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
  vi.mocked(getCurrentUser).mockReset().mockRejectedValue(cognitoError('UserUnAuthenticatedException', 'not signed in'));
});

const openLogin = async (path = '/dts/login') => {
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Sign in' });
  const email = screen.getByLabelText('Email');
  const password = screen.getByLabelText('Password');
  const submit = screen.getByRole('button', { name: 'Sign in' });
  return { ...app, email, password, submit };
};

describe('login validation (farmer §5)', () => {
  it('asks for an email first, and sends nothing', async () => {
    const { user, submit } = await openLogin();
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a correct email address');
    expect(signIn).not.toHaveBeenCalled();
  });

  it('rejects an address that is not an email', async () => {
    const { user, email, password, submit } = await openLogin();
    await user.type(email, 'farmer@');
    await user.type(password, 'secret123');
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a correct email address');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(signIn).not.toHaveBeenCalled();
  });

  it('asks for the password once the email is valid', async () => {
    const { user, email, password, submit } = await openLogin();
    await user.type(email, 'farmer@example.nz');
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(signIn).not.toHaveBeenCalled();
  });

  it('shows only the first error when both fields are wrong', async () => {
    const { user, submit } = await openLogin();
    await user.click(submit);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText('Please enter password')).not.toBeInTheDocument();
  });

  it('Enter in the password field submits the trimmed email', async () => {
    const { user, email, password } = await openLogin();
    await user.type(email, '  farmer@example.nz  ');
    await user.type(password, 'secret123{Enter}');
    await waitFor(() => expect(signIn).toHaveBeenCalledTimes(1));
    expect(signIn).toHaveBeenCalledWith({
      username: 'farmer@example.nz',
      password: 'secret123',
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
  });

  it('Enter also validates: an empty form sends nothing', async () => {
    const { user, email } = await openLogin();
    await user.type(email, '{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a correct email address');
    expect(signIn).not.toHaveBeenCalled();
  });
});

describe('signing in', () => {
  const signInAs = async (path?: string) => {
    const app = await openLogin(path);
    await app.user.type(app.email, 'farmer@example.nz');
    await app.user.type(app.password, 'secret123');
    await app.user.click(app.submit);
    return app;
  };

  it('goes to /dashboard without a reurl', async () => {
    const { router } = await signInAs();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('goes to the decoded reurl', async () => {
    const { router } = await signInAs('/dts/login/%2Fdts%2Fstorage%2Fa1%2Falert%2Fb2%3Ffarm%3DF1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/storage/a1/alert/b2'));
    expect(router.state.location.search).toBe('?farm=F1');
  });

  it('goes to /dashboard when the reurl leads off the site', async () => {
    const { router } = await signInAs(`/dts/login/${encodeURIComponent('//evil.example/phish')}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it.each(['NotAuthorizedException', 'InvalidPasswordException', 'UserNotFoundException'])(
    '%s reads "Incorrect email or password." and stays',
    async (name) => {
      vi.mocked(signIn).mockRejectedValue(cognitoError(name));
      const { router } = await signInAs();
      expect(await screen.findByText('Incorrect email or password.')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/dts/login');
      expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    },
  );

  it('explains an unconfirmed account', async () => {
    vi.mocked(signIn).mockResolvedValue({ isSignedIn: false, nextStep: { signInStep: 'CONFIRM_SIGN_UP' } });
    const { router } = await signInAs();
    expect(await screen.findByText(/not confirmed/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dts/login');
  });

  it.each([
    [['Admin'], '/dts/fleet'],
    [['Installer'], '/dts/fleet'],
    [['MilkQuality'], '/dts/fonterra/milkquality'],
    [['Westlands'], '/dts/westlands/data'],
  ])('without a reurl, %s lands on %s (operator §2 /redirect), never on the No Permission page', async (groups, landing) => {
    vi.mocked(fetchAuthSession).mockResolvedValue({ tokens: { accessToken: { payload: { 'cognito:groups': groups, 'vatman:totp': '1700000000', auth_time: 1700000000 }, toString: () => 'token' } } } as never);
    const { router } = await signInAs();
    await waitFor(() => expect(router.state.location.pathname).toBe(landing));
    vi.mocked(fetchAuthSession).mockResolvedValue({ tokens: undefined } as never);
  });

  it('skips the form when already signed in', async () => {
    vi.mocked(getCurrentUser).mockResolvedValue({ username: 'u1', userId: 'u1' });
    const { router } = renderApp('/dts/login/%2Fdts%2Fmilking');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});

describe('login page', () => {
  it('names the product and links to sign-up and password reset', async () => {
    await openLogin();
    expect(screen.getByText('Vat-Man')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/dts/register');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/dts/password/forgot');
  });

  it('can reveal the password', async () => {
    const { user, password } = await openLogin();
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(password).toHaveAttribute('type', 'text');
  });
});

describe('returnPath', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['%2Fdts%2Fdashboard', '/dts/dashboard'],
    ['/dts/dashboard', '/dts/dashboard'],
    ['%E0%A4%A', undefined],
    ['https%3A%2F%2Fevil.example', undefined],
    ['%2F%2Fevil.example', undefined],
    ['%2F%5Cevil.example', undefined],
  ])('%s → %s', (reurl, expected) => {
    expect(returnPath(reurl)).toBe(expected);
  });
});
