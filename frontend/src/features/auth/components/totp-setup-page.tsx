import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { getSession, signedInAs, signOutUser } from '../../../lib/auth-session';
import { landingPath } from '../../../lib/role-landing';
import { finishTotpEnrolment, startTotpEnrolment, type TotpEnrolment } from '../api/totp';
import { AuthLayout } from './auth-layout';
import { TotpCodeForm } from './totp-code-form';

/**
 * /dts/authenticator (issue 13): enrol an authenticator app. Operator roles cannot act without one
 * (the API answers 403 and the app comes here); a farmer may opt in. The QR code carries Cognito's
 * secret (AssociateSoftwareToken); the first code confirms it (VerifySoftwareToken). From then on
 * sign-in asks for the app's code, and the refreshed session carries the claim the API checks.
 */
export function TotpSetupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      const account = await signedInAs();
      if (!account) {
        navigate(paths.login.to(paths.totpSetup.to()), { replace: true });
        return;
      }
      try {
        const started = await startTotpEnrolment(account);
        if (live) setEnrolment(started);
      } catch {
        if (live) setFailure('The authenticator setup could not start. Please sign in again and retry.');
      }
    })();
    return () => {
      live = false;
    };
  }, [navigate]);

  /** The app's first code: null once enrolled (the page moves on), else the message to show. */
  const submit = async (code: string): Promise<string | null> => {
    const result = await finishTotpEnrolment(code);
    if (!result.ok) return result.message;
    // A fresh token: the pre-token-generation trigger now says TOTP is enrolled.
    const session = await getSession({ forceRefresh: true });
    queryClient.clear();
    navigate(landingPath(session), { replace: true });
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
      {!enrolment && !failure && <p className="auth-card__text">Preparing your code…</p>}
      {enrolment && (
        <TotpCodeForm name="Authenticator setup" submit={submit}>
          <p className="auth-card__text">1. Scan this QR code with your authenticator app.</p>
          <img className="totp-setup__qr" src={enrolment.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
          <p className="auth-card__text">
            Or enter this key: <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <p className="auth-card__text">2. Enter the 6-digit code the app shows.</p>
        </TotpCodeForm>
      )}
      <div className="auth-card__actions">
        <button type="button" className="button button--text" onClick={() => void logout()}>
          Logout
        </button>
      </div>
    </AuthLayout>
  );
}
