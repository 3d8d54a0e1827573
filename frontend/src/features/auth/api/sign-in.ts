import { confirmSignIn, signIn } from 'aws-amplify/auth';
import * as z from 'zod';
import { MSG_EMAIL, MSG_PASSWORD_REQUIRED, MSG_TOO_MANY_ATTEMPTS, MSG_TOTP_CODE, totpCodeField } from '../../../../../shared/api/actions/user';
import { SNACKBAR_DEFAULT_MESSAGE } from '../../../components/snackbar';
import { MSG_NO_RESPONSE } from '../../../lib/api-error';
import { authReady } from '../../../lib/auth-session';

/** The login form (farmer §5): email trimmed and valid, password present; fields in the order shown. */
export const signInInputSchema = z.object({
  email: z.string().trim().pipe(z.email(MSG_EMAIL)),
  password: z.string().min(1, MSG_PASSWORD_REQUIRED),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

const MSG_WRONG_CREDENTIALS = 'Incorrect email or password.';
const MSG_NOT_CONFIRMED = 'Your account is not confirmed yet. Please check your email.';
const MSG_RESET_REQUIRED = 'Your password needs to be reset. Use "Forgot password?" to set a new one.';

/** `totp`: the account has an authenticator app; the code step (confirmTotpCode) comes next. */
export type SignInResult = { readonly ok: true } | { readonly ok: false; readonly totp?: boolean; readonly message: string };

const MSG_ENTER_TOTP = 'Enter the code from your authenticator app.';

export const totpCodeSchema = totpCodeField;

/**
 * Cognito's error names, mapped to what a farmer can act on. AWS answers a wrong password with
 * NotAuthorizedException; cognito-local with InvalidPasswordException; an unknown email is
 * UserNotFoundException unless the pool hides it. All read the same so an address cannot be probed.
 */
export const signInErrorMessage = (err: unknown): string => {
  const name = err instanceof Error ? err.name : '';
  const message = err instanceof Error ? err.message : '';
  switch (name) {
    case 'NotAuthorizedException':
      return /attempts exceeded/i.test(message) ? MSG_TOO_MANY_ATTEMPTS : MSG_WRONG_CREDENTIALS;
    case 'InvalidPasswordException':
    case 'UserNotFoundException':
      return MSG_WRONG_CREDENTIALS;
    case 'UserNotConfirmedException':
      return MSG_NOT_CONFIRMED;
    case 'CodeMismatchException':
    case 'ExpiredCodeException':
    case 'EnableSoftwareTokenMFAException':
      return MSG_TOTP_CODE;
    case 'PasswordResetRequiredException':
      return MSG_RESET_REQUIRED;
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return MSG_TOO_MANY_ATTEMPTS;
    case 'NetworkError':
      return MSG_NO_RESPONSE;
    default:
      return message || SNACKBAR_DEFAULT_MESSAGE;
  }
};

const nextStepMessage = (step: string): string => {
  switch (step) {
    case 'CONFIRM_SIGN_UP':
      return MSG_NOT_CONFIRMED;
    case 'RESET_PASSWORD':
    case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
      return MSG_RESET_REQUIRED;
    default:
      return `Signing in needs a further step (${step}) that Vat-Man does not support yet. Please contact support.`;
  }
};

/** Password sign-in. USER_PASSWORD_AUTH because cognito-local (the local stack) has no SRP. */
export const signInWithPassword = async ({ email, password }: SignInInput): Promise<SignInResult> => {
  try {
    // Amplify loads after the page (lib/auth-session.ts): configured before it is asked.
    await authReady();
    const { isSignedIn, nextStep } = await signIn({
      username: email,
      password,
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
    if (isSignedIn) return { ok: true };
    if (nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') return { ok: false, totp: true, message: MSG_ENTER_TOTP };
    return { ok: false, message: nextStepMessage(nextStep.signInStep) };
  } catch (err) {
    if (err instanceof Error && err.name === 'UserAlreadyAuthenticatedException') return { ok: true };
    return { ok: false, message: signInErrorMessage(err) };
  }
};

/** The code step (SOFTWARE_TOKEN_MFA): the authenticator app's current 6-digit code. */
export const confirmTotpCode = async (code: string): Promise<SignInResult> => {
  try {
    await authReady();
    const { isSignedIn, nextStep } = await confirmSignIn({ challengeResponse: code });
    if (isSignedIn) return { ok: true };
    if (nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') return { ok: false, message: MSG_TOTP_CODE };
    return { ok: false, message: nextStepMessage(nextStep.signInStep) };
  } catch (err) {
    return { ok: false, message: signInErrorMessage(err) };
  }
};
