import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { MSG_AUTHENTICATOR_CODE } from '@shared/api/actions/profile';
import { useApiClient } from '../../../lib/api-client-provider';
import type { ApiError } from '../../../lib/api-error';
import { signedInAs, signOutUser } from '../../../lib/auth-session';
import { confirmAuthenticator, finishTotpEnrolment, hasAuthenticatorApp, sendAuthenticatorCode, startTotpEnrolment, type TotpEnrolment } from '../api/totp';
import { AuthLayout } from './auth-layout';
import { TotpCodeForm } from './totp-code-form';

/**
 * /dts/authenticator: enrol an authenticator app. Operator roles cannot act without one (the API
 * answers 403 and the app comes here); a farmer may opt in. Three steps:
 * 1. the QR code carries Cognito's secret (AssociateSoftwareToken);
 * 2. the app's first code turns it on (VerifySoftwareToken, then TOTP as the sign-in factor);
 * 3. a code emailed to the person's verified address confirms it is theirs. The server then signs
 *    them out everywhere, and the next sign-in (password and the app's code) carries operator reach.
 * Whoever knows only the password can do 1 and 2, never 3. An app turned on earlier whose
 * confirmation is still due starts at 3.
 */
type Step = { readonly kind: 'loading' } | { readonly kind: 'app'; readonly enrolment: TotpEnrolment } | { readonly kind: 'email'; readonly sent: boolean } | { readonly kind: 'done' };

const errorText = (error: ApiError): string => {
  const message = error.userMessage ?? error.serverMessage;
  return (Array.isArray(message) ? message.join(' ') : (message as string | undefined)) ?? 'Something went wrong. Please try again.';
};

export function TotpSetupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const client = useApiClient();
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const [failure, setFailure] = useState<string | null>(null);

  const sendCode = async () => {
    setFailure(null);
    let refused: string | null = null;
    await sendAuthenticatorCode(client, (error) => {
      refused = errorText(error);
    }).catch(() => undefined);
    setFailure(refused);
    setStep({ kind: 'email', sent: refused === null });
  };

  useEffect(() => {
    let live = true;
    void (async () => {
      const account = await signedInAs();
      if (!account) {
        navigate(paths.login.to(paths.totpSetup.to()), { replace: true });
        return;
      }
      try {
        if (await hasAuthenticatorApp()) {
          if (live) await sendCode();
          return;
        }
        const started = await startTotpEnrolment(account);
        if (live) setStep({ kind: 'app', enrolment: started });
      } catch {
        if (live) setFailure('The authenticator setup could not start. Please sign in again and retry.');
      }
    })();
    return () => {
      live = false;
    };
    // sendCode is this render's; the effect runs once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [navigate]);

  /** The app's first code: null once the app is on (the email step follows), else the message to show. */
  const submitAppCode = async (code: string): Promise<string | null> => {
    const result = await finishTotpEnrolment(code);
    if (!result.ok) return result.message;
    await sendCode();
    return null;
  };

  /** The emailed code: null once confirmed (every session is signed out, this one too), else the message. */
  const submitEmailCode = async (code: string): Promise<string | null> => {
    let refused: string | null = null;
    try {
      await confirmAuthenticator(client, code, (error) => {
        refused = errorText(error);
      });
    } catch {
      return refused ?? 'Something went wrong. Please try again.';
    }
    await signOutUser();
    queryClient.clear();
    setStep({ kind: 'done' });
    return null;
  };

  const logout = async () => {
    await signOutUser();
    queryClient.clear();
    navigate(paths.login.to(), { replace: true });
  };

  return (
    <AuthLayout title="Set up your authenticator app">
      <p className="auth-card__text">
        Your role can change settings on other people&apos;s farms, so signing in needs a code from an authenticator app as well as your password.
      </p>
      {failure && (
        <p className="form__error" role="alert">
          {failure}
        </p>
      )}
      {step.kind === 'loading' && !failure && <p className="auth-card__text">Preparing your code…</p>}
      {step.kind === 'app' && (
        <TotpCodeForm name="Authenticator setup" submit={submitAppCode}>
          <p className="auth-card__text">1. Scan this QR code with your authenticator app.</p>
          <img className="totp-setup__qr" src={step.enrolment.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
          <p className="auth-card__text">
            Or enter this key: <code data-testid="totp-secret">{step.enrolment.secret}</code>
          </p>
          <p className="auth-card__text">2. Enter the 6-digit code the app shows.</p>
        </TotpCodeForm>
      )}
      {step.kind === 'email' && (
        <>
          {step.sent && (
            <TotpCodeForm name="Authenticator confirmation" label="Email code" invalid={MSG_AUTHENTICATOR_CODE} submit={submitEmailCode}>
              <p className="auth-card__text">3. To confirm the app is yours, enter the 6-digit code we emailed you.</p>
            </TotpCodeForm>
          )}
          <div className="auth-card__actions">
            <button type="button" className="button button--text" onClick={() => void sendCode()}>
              Send the email again
            </button>
          </div>
        </>
      )}
      {step.kind === 'done' && (
        <>
          <p className="auth-card__text" role="status">
            Your authenticator app is confirmed. You have been signed out everywhere: sign in again with your password and the app&apos;s code.
          </p>
          <button type="button" className="button button--primary button--block" onClick={() => navigate(paths.login.to(), { replace: true })}>
            Sign in
          </button>
        </>
      )}
      {step.kind !== 'done' && (
        <div className="auth-card__actions">
          <button type="button" className="button button--text" onClick={() => void logout()}>
            Logout
          </button>
        </div>
      )}
    </AuthLayout>
  );
}
