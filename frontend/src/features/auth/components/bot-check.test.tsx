import { act, screen, waitFor } from '@testing-library/react';
import { signIn } from 'aws-amplify/auth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, stubWebConfig, type FakeAnswer } from '../../../testing/fake-api';
import { renderApp, testApiClient } from '../../../testing/render-app';
import { loadRecaptcha, RECAPTCHA_SCRIPT, type Grecaptcha } from '../api/recaptcha';
import { MSG_BOT_CHECK } from './bot-check';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

type RenderParameters = Parameters<Grecaptcha['render']>[1];

/** reCAPTCHA's API as the loaded script leaves it on window; the test plays the person ticking. */
const fakeGrecaptcha = () => {
  const widgets: { element: HTMLElement; parameters: RenderParameters }[] = [];
  window.grecaptcha = {
    render: vi.fn((element: HTMLElement, parameters: RenderParameters) => {
      element.textContent = "I'm not a robot";
      widgets.push({ element, parameters });
      return widgets.length;
    }),
    reset: vi.fn(),
  };
  /** The widget now on the page (StrictMode renders and removes one first). */
  const current = () => {
    const live = widgets.filter((w) => w.element.isConnected);
    expect(live).toHaveLength(1);
    return live[0] as (typeof widgets)[number];
  };
  return { widgets, current, tick: (answer: string) => act(() => current().parameters.callback(answer)) };
};

const SIGN_UP = { 'First name': 'Aroha', 'Last name': 'Smith', Email: 'aroha@example.nz', Phone: '021 123 4567', Password: 'milk-vat-2026' };

const openRegister = async (signUpAnswer: () => FakeAnswer = () => ({ token: 'access' })) => {
  const api = fakeApi({
    USER_SIGN_UP: signUpAnswer,
    USER_ONE_GET_BY_TOKEN: () => ({ status: 401, body: { message: 'Unauthorized' } }),
  });
  const app = renderApp('/dts/register', { apiClient: testApiClient(api.fetch) });
  await screen.findByRole('heading', { name: 'Sign up' });
  for (const [label, value] of Object.entries(SIGN_UP)) await app.user.type(screen.getByLabelText(label, { selector: 'input' }), value);
  return { ...app, api, send: () => app.user.click(screen.getByRole('button', { name: 'Sign up' })) };
};

beforeEach(() => {
  vi.mocked(signIn).mockReset().mockResolvedValue({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
});

afterEach(() => {
  delete window.grecaptcha;
  vi.unstubAllGlobals();
});

describe('the bot-check with a site key in the runtime config (spec §7)', () => {
  beforeEach(() => stubWebConfig({ recaptchaSiteKey: 'site-key-1' }));

  it('sign-up renders the checkbox with the site key, asks for a tick before sending, then sends its answer', async () => {
    const captcha = fakeGrecaptcha();
    const { api, send, router } = await openRegister();
    await waitFor(() => expect(captcha.current().parameters.sitekey).toBe('site-key-1'));
    expect(screen.getByText("I'm not a robot")).toBeInTheDocument();

    await send();
    expect(screen.getByRole('alert')).toHaveTextContent(MSG_BOT_CHECK);
    expect(api.calls).toHaveLength(0);

    captcha.tick('answer-1');
    await send();
    await waitFor(() => expect(api.callsOf('USER_SIGN_UP')).toHaveLength(1));
    expect(api.callsOf('USER_SIGN_UP')[0]?.fields.get('gRecaptchaResponse')).toBe('answer-1');
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/dts/register'));
  });

  it('the field errors come first: a bad field is the one message even without a tick', async () => {
    fakeGrecaptcha();
    const { user, send, api } = await openRegister();
    await user.clear(screen.getByLabelText('Phone'));
    await send();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your phone number');
    expect(api.calls).toHaveLength(0);
  });

  it('an expired answer must be ticked again', async () => {
    const captcha = fakeGrecaptcha();
    const { send, api } = await openRegister();
    await waitFor(() => captcha.current());
    captcha.tick('answer-1');
    act(() => captcha.current().parameters['expired-callback']());
    await send();
    expect(screen.getByRole('alert')).toHaveTextContent(MSG_BOT_CHECK);
    expect(api.calls).toHaveLength(0);
  });

  it('after a refused attempt the spent answer is dropped and a fresh checkbox shown', async () => {
    const captcha = fakeGrecaptcha();
    const { send, api } = await openRegister(() => ({ status: 422, body: { message: 'This email is already registered' } }));
    await waitFor(() => captcha.current());
    const first = captcha.current();
    captcha.tick('answer-1');
    await send();
    expect(await screen.findByText('This email is already registered')).toBeInTheDocument();
    await waitFor(() => expect(captcha.current()).not.toBe(first));
    await send();
    expect(screen.getByText(MSG_BOT_CHECK)).toBeInTheDocument();
    expect(api.callsOf('USER_SIGN_UP')).toHaveLength(1);
  });

  it('the reset page sends the answer as gRecaptchaResponse', async () => {
    const captcha = fakeGrecaptcha();
    const api = fakeApi({ USER_RESET_PASSWORD: () => 'success' });
    const { user } = renderApp('/dts/password/reset/tok', { apiClient: testApiClient(api.fetch) });
    await user.type(await screen.findByLabelText('New password'), 'a-new-password');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(MSG_BOT_CHECK);
    expect(api.calls).toHaveLength(0);
    await waitFor(() => captcha.current());
    captcha.tick('answer-2');
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Password has been reset' });
    expect(api.callsOf('USER_RESET_PASSWORD')[0]?.fields.get('gRecaptchaResponse')).toBe('answer-2');
  });
});

describe('without a site key (the local stack)', () => {
  it('renders no widget and sends an empty answer', async () => {
    stubWebConfig();
    const captcha = fakeGrecaptcha();
    const { send, api } = await openRegister();
    await send();
    await waitFor(() => expect(api.callsOf('USER_SIGN_UP')).toHaveLength(1));
    expect(api.callsOf('USER_SIGN_UP')[0]?.fields.get('gRecaptchaResponse')).toBe('');
    expect(screen.queryByTestId('bot-check')).not.toBeInTheDocument();
    expect(captcha.widgets).toHaveLength(0);
  });
});

describe('loadRecaptcha', () => {
  afterEach(() => document.head.querySelectorAll('script').forEach((s) => s.remove()));

  it("adds Google's script once, in explicit-render mode, and resolves when it calls back", async () => {
    const first = loadRecaptcha();
    const second = loadRecaptcha();
    const scripts = [...document.head.querySelectorAll('script')];
    expect(scripts.map((s) => s.src)).toEqual([RECAPTCHA_SCRIPT]);
    const api = { render: vi.fn(), reset: vi.fn() };
    window.grecaptcha = api;
    window.vatmanRecaptchaLoaded?.();
    await expect(first).resolves.toBe(api);
    await expect(second).resolves.toBe(api);
  });

  it('a failed load rejects, and a later call tries again', async () => {
    vi.resetModules();
    const { loadRecaptcha: load } = await import('../api/recaptcha');
    const failing = load();
    document.head.querySelector('script')?.dispatchEvent(new Event('error'));
    await expect(failing).rejects.toThrow('The bot-check could not be loaded');
    void load().catch(() => undefined);
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
  });
});
