import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { getSession, signedInAs, signOutUser } from '../../../lib/auth-session';
import { landingPath } from '../../../lib/role-landing';
import { totpCodeSchema } from '../api/sign-in';
import { finishTotpEnrolment, startTotpEnrolment, type TotpEnrolment } from '../api/totp';
import { AuthLayout } from './auth-layout';

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
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = { code: useId(), error: useId() };

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

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const parsed = totpCodeSchema.safeParse(code);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the code');
      input.current?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    const result = await finishTotpEnrolment(parsed.data);
    if (!result.ok) {
      setSubmitting(false);
      setError(result.message);
      input.current?.focus();
      return;
    }
    // A fresh token: the pre-token-generation trigger now says TOTP is enrolled.
    const session = await getSession({ forceRefresh: true });
    queryClient.clear();
    navigate(landingPath(session), { replace: true });
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
        <form className="form" noValidate onSubmit={(event) => void submit(event)} aria-label="Authenticator setup">
          <p className="auth-card__text">1. Scan this QR code with your authenticator app.</p>
          <img className="totp-setup__qr" src={enrolment.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
          <p className="auth-card__text">
            Or enter this key: <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <p className="auth-card__text">2. Enter the 6-digit code the app shows.</p>
          <div className="form__field">
            <label htmlFor={ids.code}>Authenticator code</label>
            <input
              ref={input}
              id={ids.code}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(event) => {
                setCode(event.target.value);
                setError(null);
              }}
              {...(error ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {})}
            />
          </div>
          {error && (
            <p id={ids.error} className="form__error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--primary button--block" disabled={submitting}>
            {submitting ? 'Checking…' : 'Verify'}
          </button>
        </form>
      )}
      <div className="auth-card__actions">
        <button type="button" className="button button--text" onClick={() => void logout()}>
          Logout
        </button>
      </div>
    </AuthLayout>
  );
}
