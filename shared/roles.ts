/**
 * Roles of spec §6 (both documents). Operator roles are Cognito groups; a user in no group is a
 * plain farmer. The role always comes from the verified token, never from the request.
 */
export const OPERATOR_GROUPS = ['Admin', 'Installer', 'MilkQuality', 'Westlands'] as const;
export type OperatorGroup = (typeof OPERATOR_GROUPS)[number];

/** Role names as the spec shows them to people ('Milk Quality' has a space; the group has none). */
export type Role = 'Admin' | 'Installer' | 'Milk Quality' | 'Westlands' | 'User';

const GROUP_TO_ROLE: Record<OperatorGroup, Role> = {
  Admin: 'Admin',
  Installer: 'Installer',
  MilkQuality: 'Milk Quality',
  Westlands: 'Westlands',
};

/** The strongest role among a user's groups (Admin first). */
export const roleFromGroups = (groups: readonly string[]): Role => {
  for (const g of OPERATOR_GROUPS) if (groups.includes(g)) return GROUP_TO_ROLE[g];
  return 'User';
};

const isOperatorGroup = (g: string): g is OperatorGroup =>
  (OPERATOR_GROUPS as readonly string[]).includes(g);

/**
 * The token claim the pre-token-generation trigger adds (lambdas/triggers/totp-claim.ts): the time
 * (Unix seconds) at which the product confirmed the user's authenticator app, present only while
 * Cognito has that app enabled as the sign-in factor. The claim alone says the *account* has an
 * app; a session proves it answered the app by having signed in at or after that time
 * (`auth_time`, which a refresh keeps), because from then on every sign-in asks for the code.
 */
export const TOTP_CLAIM = 'vatman:totp';
/**
 * The user attribute holding that confirmation time (`custom:` + this name). Only the API's own
 * role writes it (the web client's write attributes leave it out), after the person proved both
 * the app and their verified email.
 */
export const TOTP_CONFIRMED_ATTRIBUTE = 'totp_at';
/**
 * What the web app client may write to Cognito itself: the names only. Everything else changes
 * only through the API: the email and phone the profile stores are the ones Cognito verifies, so
 * a person who could set them in Cognito directly could have a code for their own number mark
 * another stored number verified, or leave the profile on an address they no longer hold.
 */
export const WEB_CLIENT_WRITE_ATTRIBUTES = ['given_name', 'family_name'] as const;
/** The 403 an operator without an authenticator app gets; the web app sends them to the enrolment screen on it. */
export const MSG_TOTP_REQUIRED = 'Set up an authenticator app to use this role.';

/**
 * Whether verified claims (real values, or HTTP API's flattened strings) show a session that
 * answered the authenticator: a confirmation time, and a sign-in at or after it.
 */
export const totpProven = (claims: Readonly<Record<string, unknown>>): boolean => {
  const confirmedAt = Number(claims[TOTP_CLAIM]);
  const authTime = Number(claims.auth_time);
  return Number.isFinite(confirmedAt) && confirmedAt > 0 && Number.isFinite(authTime) && authTime >= confirmedAt;
};

/** Operator roles (any group) must sign in with TOTP; farmers may opt in. */
export const needsTotp = (groups: readonly string[], claims: Readonly<Record<string, unknown>>): boolean =>
  groups.some(isOperatorGroup) && !totpProven(claims);
