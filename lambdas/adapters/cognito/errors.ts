import { MSG_SIGN_IN_AGAIN } from '../../../shared/api/actions/profile';
import { MSG_TOO_MANY_ATTEMPTS } from '../../../shared/api/actions/user';
import { ThrottledError, UnauthorizedError } from '../../lib/errors';

/** The exception's name as the SDK (and cognito-local) sets it; '' for anything else. */
export const cognitoErrorName = (err: unknown): string => (err as { name?: string } | undefined)?.name ?? '';

/** Whether Cognito refused with one of these exceptions. */
export const isCognitoError = (err: unknown, ...names: string[]): boolean => names.includes(cognitoErrorName(err));

/** Cognito's ways of saying "too many": per-user code limits, the account's failed attempts, the API's rate. */
const THROTTLED = ['LimitExceededException', 'TooManyRequestsException', 'TooManyFailedAttemptsException'];

/**
 * A token Cognito will not act on: revoked or signed out elsewhere (NotAuthorized), or one it does
 * not know as an access token of this pool (ResourceNotFound, as cognito-local answers an ID token
 * where AWS answers NotAuthorized).
 */
const SIGNED_OUT = ['NotAuthorizedException', 'ResourceNotFoundException'];

/** Throws the API's 429 when Cognito throttled the call; otherwise returns, for the caller's own mapping. */
export const throwIfThrottled = (err: unknown): void => {
  if (isCognitoError(err, ...THROTTLED)) throw new ThrottledError(MSG_TOO_MANY_ATTEMPTS);
};

/**
 * Cognito's refusals of a call made with the person's own access token, as the API answers them: a
 * signed-out caller is a 401, as the spec's shells expect; too many requests a 429; anything else
 * unchanged (a 500, logged).
 */
export const rethrowForCaller = (err: unknown): never => {
  throwIfThrottled(err);
  if (isCognitoError(err, ...SIGNED_OUT)) throw new UnauthorizedError(MSG_SIGN_IN_AGAIN);
  throw err;
};
