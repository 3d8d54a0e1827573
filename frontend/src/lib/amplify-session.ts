import { Amplify } from 'aws-amplify';
import { fetchAuthSession, getCurrentUser, signOut } from 'aws-amplify/auth';
import type { WebConfig } from '../../../shared/web-config';
import { needsTotp, roleFromGroups } from '../../../shared/roles';
import type { Session } from './session';

/**
 * Amplify's side of ./auth-session.ts, which loads this module on first use (Amplify is
 * about 30 kB gzipped and no page needs it before its first paint). Import auth-session, not this.
 */
export const configureAmplify = ({ userPoolId, userPoolClientId, cognitoEndpoint }: WebConfig): void => {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId,
        userPoolClientId,
        // Only the local stack sets it (cognito-local); in AWS Amplify derives the endpoint from the pool id.
        ...(cognitoEndpoint ? { userPoolEndpoint: cognitoEndpoint } : {}),
      },
    },
  });
};

const groupsOf = (claim: unknown): string[] =>
  Array.isArray(claim) ? claim.filter((g): g is string => typeof g === 'string') : [];

/** The current session, or null when signed out or the refresh failed. */
export const getSession = async ({ forceRefresh = false }: { forceRefresh?: boolean } = {}): Promise<Session | null> => {
  try {
    const { tokens } = await fetchAuthSession({ forceRefresh });
    if (!tokens?.accessToken) return null;
    const groups = groupsOf(tokens.accessToken.payload['cognito:groups']);
    return { accessToken: tokens.accessToken.toString(), groups, role: roleFromGroups(groups), needsTotp: needsTotp(groups, tokens.accessToken.payload) };
  } catch {
    return null;
  }
};

export const isSignedIn = async (): Promise<boolean> => {
  try {
    await getCurrentUser();
    return true;
  } catch {
    return false;
  }
};

/** The name the signed-in user signed in with (their email), or null when signed out. */
export const signedInAs = async (): Promise<string | null> => {
  try {
    const { username, signInDetails } = await getCurrentUser();
    return signInDetails?.loginId ?? username;
  } catch {
    return null;
  }
};

/** Clears the stored tokens. A failed global sign-out still clears them locally. */
export const signOutUser = async (): Promise<void> => {
  try {
    await signOut();
  } catch {
    // Amplify clears the local tokens even when revoking them remotely fails; nothing left to do.
  }
};
