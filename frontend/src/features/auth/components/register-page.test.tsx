import { screen, waitFor } from '@testing-library/react';
import { signIn } from 'aws-amplify/auth';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MSG_EMAIL,
  MSG_FIRST_NAME,
  MSG_LAST_NAME,
  MSG_NAME_CHARACTERS,
  MSG_PASSWORD_LENGTH,
  MSG_PASSWORD_REQUIRED,
  MSG_PHONE_LENGTH,
  MSG_PHONE_REQUIRED,
} from '@shared/api/actions/user';
import { build } from '../../../testing/build';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

beforeEach(() => {
  vi.mocked(signIn).mockReset().mockResolvedValue({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
});

const VALID = { firstName: 'Aroha', lastName: 'Smith', email: 'aroha@example.nz', phone: '021 123 4567', password: 'milk-vat-2026' };
type Values = typeof VALID;
const LABELS: Record<keyof Values, string> = { firstName: 'First name', lastName: 'Last name', email: 'Email', phone: 'Phone', password: 'Password' };

const openRegister = async () => {
  const api = fakeApi({
    USER_SIGN_UP: () => ({ token: 'access', idToken: 'id', refreshToken: 'refresh' }),
    USER_ONE_GET_BY_TOKEN: () => ({ user: build.user(), listFarm: [build.farm()], organization: null }),
    FARMER_DASHBOARD_GET: () => ({ farm: build.farm(), vats: [], knode: [] }),
  });
  const app = renderApp('/dts/register', { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { name: 'Sign up' });
  /** Types the given values (others left empty), then presses the button. */
  const submit = async (values: Partial<Values>) => {
    for (const [field, value] of Object.entries(values) as [keyof Values, string][]) {
      if (value !== '') await app.user.type(screen.getByLabelText(LABELS[field]), value);
    }
    await app.user.click(screen.getByRole('button', { name: 'Sign up' }));
  };
  return { ...app, api, submit };
};

describe('sign-up validation (farmer §5): first error only, nothing sent', () => {
  it.each<[string, Partial<Values>, string, keyof Values]>([
    ['an empty form', {}, MSG_FIRST_NAME, 'firstName'],
    ['a blank first name', { ...VALID, firstName: '   ' }, MSG_FIRST_NAME, 'firstName'],
    ['no last name', { ...VALID, lastName: '' }, MSG_LAST_NAME, 'lastName'],
    ['markup in the first name', { ...VALID, firstName: '<a href="https://evil.example/login">Verify here</a>' }, MSG_NAME_CHARACTERS, 'firstName'],
    ['an ampersand in the last name', { ...VALID, lastName: 'Smith & Sons' }, MSG_NAME_CHARACTERS, 'lastName'],
    ['no email', { ...VALID, email: '' }, MSG_EMAIL, 'email'],
    ['a wrong email', { ...VALID, email: 'aroha@' }, MSG_EMAIL, 'email'],
    ['no phone', { ...VALID, phone: '' }, MSG_PHONE_REQUIRED, 'phone'],
    ['a short phone', { ...VALID, phone: '0211234' }, MSG_PHONE_LENGTH, 'phone'],
    ['no password', { ...VALID, password: '' }, MSG_PASSWORD_REQUIRED, 'password'],
    ['a 7-character password', { ...VALID, password: 'abcdefg' }, MSG_PASSWORD_LENGTH, 'password'],
    ['a 51-character password', { ...VALID, password: 'a'.repeat(51) }, MSG_PASSWORD_LENGTH, 'password'],
  ])('%s', async (_label, values, message, field) => {
    const { submit, api } = await openRegister();
    await submit(values);
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toHaveTextContent(message);
    expect(screen.getByLabelText(LABELS[field])).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(LABELS[field])).toHaveFocus();
    expect(api.calls).toHaveLength(0);
    expect(signIn).not.toHaveBeenCalled();
  });

  it('clears the error once the field in error changes', async () => {
    const { submit, user } = await openRegister();
    await submit({});
    await user.type(screen.getByLabelText('First name'), 'A');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('signing up', () => {
  it('Enter sends the trimmed user and an empty bot-check, signs in through Amplify, then opens /dts/dashboard', async () => {
    const { user, api, router } = await openRegister();
    for (const [field, value] of Object.entries({ ...VALID, email: '  aroha@example.nz ' }) as [keyof Values, string][]) {
      await user.type(screen.getByLabelText(LABELS[field]), value);
    }
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/dashboard'));
    const [call] = api.callsOf('USER_SIGN_UP');
    expect(call?.path).toBe('/api/user');
    expect(call?.fields.get('gRecaptchaResponse')).toBe('');
    expect(api.jsonField('USER_SIGN_UP', 'user')).toEqual(VALID);
    expect(signIn).toHaveBeenCalledWith({ username: 'aroha@example.nz', password: VALID.password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  });

  it("shows the server's 422 message and stays", async () => {
    const api = fakeApi({ USER_SIGN_UP: () => ({ status: 422, body: { message: 'This email is already registered' } }) });
    const { user, router } = renderApp('/dts/register', { apiClient: testApiClient(api.fetch) });
    await screen.findByRole('heading', { name: 'Sign up' });
    for (const [field, value] of Object.entries(VALID) as [keyof Values, string][]) await user.type(screen.getByLabelText(LABELS[field]), value);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('This email is already registered')).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/dts/register');
  });

  it('goes to the login page with the reason when the Amplify sign-in does not complete', async () => {
    vi.mocked(signIn).mockResolvedValue({ isSignedIn: false, nextStep: { signInStep: 'CONFIRM_SIGN_UP' } });
    const { submit, router } = await openRegister();
    await submit(VALID);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login'));
    expect(await screen.findByText(/not confirmed/)).toBeInTheDocument();
  });

  it('links back to sign-in', async () => {
    await openRegister();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/dts/login');
  });
});
