import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { roleFromGroups, totpProven, type Role } from '../../shared/roles';

/** Who is calling, from verified token claims only (never from the request body). */
export interface Caller {
  readonly userId: string;
  readonly username: string;
  readonly groups: readonly string[];
  readonly role: Role;
  /** This session answered the authenticator app (TOTP): see `totpProven`. */
  readonly totp: boolean;
  /**
   * The bearer itself (an access token), for the few calls Cognito authorizes by the person's own
   * token (verification codes, password change). Never logged, never stored.
   */
  readonly accessToken?: string;
}

/**
 * HTTP API's JWT authorizer hands claims to the Lambda as strings; an array claim such as
 * cognito:groups arrives as "[Admin Installer]". A verified payload has it as a real array.
 */
export const parseGroupsClaim = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value.trim() === '') return [];
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '');
  return inner.split(/[\s,]+/).filter(Boolean);
};

export const callerFromClaims = (claims: Record<string, unknown> | JwtPayload): Caller => {
  const groups = parseGroupsClaim(claims['cognito:groups']);
  const sub = String(claims.sub ?? '');
  return {
    userId: sub,
    username: String(claims.username ?? claims['cognito:username'] ?? sub),
    groups,
    role: roleFromGroups(groups),
    totp: totpProven(claims),
  };
};

/** How HTTP API's authorizer flattens claims into the event (strings; arrays as "[a b]"). */
export const flattenClaimsLikeHttpApi = (payload: JwtPayload): Record<string, string> =>
  Object.fromEntries(
    Object.entries(payload).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(' ')}]` : String(v)]),
  );
