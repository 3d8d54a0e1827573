import { vi } from 'vitest';

/**
 * aws-amplify/auth with nobody signed in, for screen tests that stub the API and need no session:
 * `vi.mock('aws-amplify/auth', () => import('…/testing/signed-out-auth'))` (vi.mock is hoisted
 * above the imports, so its factory can only load the module, not use an imported binding).
 */
export const fetchAuthSession = vi.fn(() => Promise.resolve({ tokens: undefined }));
export const getCurrentUser = vi.fn(() => Promise.reject(new Error('UserUnAuthenticatedException')));
export const signIn = vi.fn();
export const signOut = vi.fn(() => Promise.resolve());

/** Back to nobody signed in: for a file whose tests sign someone in, or make the session hang, one at a time. */
export const resetSignedOutAuth = (): void => {
  for (const mock of [fetchAuthSession, getCurrentUser, signIn, signOut]) mock.mockReset();
};
