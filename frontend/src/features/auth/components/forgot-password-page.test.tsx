import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MSG_EMAIL } from '@shared/api/actions/user';
import { fakeApi } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const openForgot = async () => {
  const api = fakeApi({ USER_FORGOT_PASSWORD: () => 'success' });
  const app = renderApp('/dts/password/forgot', { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { name: 'Forgot password' });
  return { ...app, api, email: screen.getByLabelText('Email') };
};

describe('/dts/password/forgot', () => {
  it.each([
    ['empty', ''],
    ['not an email', 'farmer.example.nz'],
  ])('an %s address reads the email message and sends nothing', async (_label, value) => {
    const { user, api, email } = await openForgot();
    if (value) await user.type(email, value);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MSG_EMAIL);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls).toHaveLength(0);
  });

  it('Enter sends the trimmed email and opens the finished page', async () => {
    const { user, api, email, router } = await openForgot();
    await user.type(email, ' farmer@example.nz {Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/password/forgot/finished'));
    expect(api.callsOf('USER_FORGOT_PASSWORD')).toHaveLength(1);
    expect(api.jsonField('USER_FORGOT_PASSWORD', 'user')).toEqual({ email: 'farmer@example.nz' });
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText(/sent it an email with a link to reset your password/)).toBeInTheDocument();
  });

  it('stays when the call fails', async () => {
    const api = fakeApi({ USER_FORGOT_PASSWORD: () => ({ status: 429, body: { message: 'Too many requests' } }) });
    const { user, router } = renderApp('/dts/password/forgot', { apiClient: testApiClient(api.fetch) });
    await user.type(await screen.findByLabelText('Email'), 'farmer@example.nz{Enter}');
    expect(await screen.findByText('Too many requests')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dts/password/forgot');
  });
});

describe('/dts/password/forgot/finished', () => {
  it('says an email was sent and links to a new request and to sign-in', async () => {
    renderApp('/dts/password/forgot/finished');
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/dts/password/forgot');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/dts/login');
  });
});
