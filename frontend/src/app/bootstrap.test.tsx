import { act, screen } from '@testing-library/react';
import { Amplify } from 'aws-amplify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preconnect, startApp } from './bootstrap';
import { GOOD_WEB_CONFIG } from '../testing/build';

vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: vi.fn(() => Promise.resolve({ tokens: undefined })),
  getCurrentUser: vi.fn(() => Promise.reject(new Error('UserUnAuthenticatedException'))),
  signIn: vi.fn(),
  signOut: vi.fn(),
}));

const config = GOOD_WEB_CONFIG;

let unmount: (() => void) | undefined;
afterEach(() => {
  act(() => unmount?.());
  document.body.innerHTML = '';
});

const start = async (body: unknown, status = 200) => {
  const container = document.body.appendChild(document.createElement('div'));
  const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(new Response(JSON.stringify(body), { status })));
  const root = await act(() => startApp(container, fetchFn));
  unmount = () => root.unmount();
};

describe('startApp', () => {
  it('renders a readable error page naming what config.json lacks', async () => {
    const { userPoolClientId: _omit, ...partial } = config;
    await start(partial);
    expect(screen.getByRole('heading', { name: 'Vat-Man cannot start' })).toBeInTheDocument();
    expect(screen.getByText('userPoolClientId is missing')).toBeInTheDocument();
    expect(Amplify.configure).not.toHaveBeenCalled();
  });

  it('configures Amplify and renders the app from a good config', async () => {
    await start(config);
    // Amplify loads after the first paint (lib/auth-session.ts).
    await vi.waitFor(() =>
      expect(Amplify.configure).toHaveBeenCalledWith({
        Auth: { Cognito: { userPoolId: config.userPoolId, userPoolClientId: config.userPoolClientId } },
      }),
    );
    expect(await screen.findByText('Home')).toBeInTheDocument();
  });

  it("preconnects to an API on another origin only: on the site's own (/api/*) its connections serve the calls", () => {
    const links = () => [...document.head.querySelectorAll('link[rel="preconnect"]')].map((l) => l.getAttribute('href'));
    const before = links().length;
    preconnect(`${location.origin}/`);
    expect(links()).toHaveLength(before);
    preconnect('https://api.example.test/');
    expect(links().slice(before)).toEqual(['https://api.example.test']);
    document.head.querySelectorAll('link[rel="preconnect"]').forEach((l) => l.remove());
  });
});
