import { screen, waitFor } from '@testing-library/react';
import { signOut } from 'aws-amplify/auth';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../testing/render-app';

vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: vi.fn(() => Promise.resolve({ tokens: undefined })),
  getCurrentUser: vi.fn(() => Promise.reject(new Error('UserUnAuthenticatedException'))),
  signIn: vi.fn(),
  signOut: vi.fn(),
}));

describe('/logout', () => {
  it('signs out and goes to the login page', async () => {
    vi.mocked(signOut).mockResolvedValue(undefined);
    const { router } = renderApp('/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login'));
    expect(signOut).toHaveBeenCalled();
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('still goes to the login page when the remote sign-out fails', async () => {
    vi.mocked(signOut).mockRejectedValue(new Error('NetworkError'));
    const { router } = renderApp('/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login'));
  });
});
