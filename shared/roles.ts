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

export const isOperatorGroup = (g: string): g is OperatorGroup =>
  (OPERATOR_GROUPS as readonly string[]).includes(g);

/**
 * The access-token claim the pre-token-generation trigger adds (lambdas/triggers/pre-token-generation.ts):
 * 'true' when the user has an authenticator app (TOTP) enrolled. The operator roles need it.
 */
export const TOTP_CLAIM = 'vatman:totp';
/** The 403 an operator without an authenticator app gets; the web app sends them to the enrolment screen on it. */
export const MSG_TOTP_REQUIRED = 'Set up an authenticator app to use this role.';

/** Whether verified claims (real values, or HTTP API's flattened strings) say TOTP is enrolled. */
export const totpEnrolled = (claims: Readonly<Record<string, unknown>>): boolean => String(claims[TOTP_CLAIM]) === 'true';

/** Operator roles (any group) must sign in with TOTP; farmers may opt in. */
export const needsTotp = (groups: readonly string[], claims: Readonly<Record<string, unknown>>): boolean =>
  groups.some(isOperatorGroup) && !totpEnrolled(claims);
