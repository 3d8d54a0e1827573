import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MSG_PASSWORD_LENGTH, MSG_PASSWORD_REQUIRED } from '@shared/api/actions/user';
import { fakeApi, type FakeAnswer } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

const openReset = async (answer: FakeAnswer = 'success', token = 'abc-123_token') => {
  const api = fakeApi({ USER_RESET_PASSWORD: () => answer });
  const app = renderApp(`/dts/password/reset/${token}`, { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { name: 'Reset password' });
  return { ...app, api, password: screen.getByLabelText('New password') };
};

describe('/dts/password/reset/{token}', () => {
  it.each([
    ['no password', '', MSG_PASSWORD_REQUIRED],
    ['7 characters', 'abcdefg', MSG_PASSWORD_LENGTH],
    ['51 characters', 'b'.repeat(51), MSG_PASSWORD_LENGTH],
  ])('%s: one message, nothing sent', async (_label, value, message) => {
    const { user, api, password } = await openReset();
    if (value) await user.type(password, value);
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(api.calls).toHaveLength(0);
  });

  it('Enter sends the password with the route token and an empty bot-check; the dialog OK goes to login', async () => {
    const { user, api, password, router } = await openReset();
    await user.type(password, 'a-new-password{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Password has been reset' });
    expect(dialog).toHaveAccessibleDescription('Enjoy it.');
    expect(api.jsonField('USER_RESET_PASSWORD', 'user')).toEqual({ password: 'a-new-password', token: 'abc-123_token' });
    expect(api.callsOf('USER_RESET_PASSWORD')[0]?.fields.get('gRecaptchaResponse')).toBe('');
    expect(router.state.location.pathname).toMatch(/^\/dts\/password\/reset\//);
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/login'));
  });

  it('shows the server message for a bad or expired link, and no dialog', async () => {
    const { user, password } = await openReset({ status: 422, body: { message: 'This reset link is not valid. Please request a new one.' } });
    await user.type(password, 'a-new-password{Enter}');
    expect(await screen.findByText('This reset link is not valid. Please request a new one.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
