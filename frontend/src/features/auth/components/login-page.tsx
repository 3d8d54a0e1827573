import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useSnackbar } from '../../../components/snackbar';
import { paths } from '../../../config/paths';
import { getSession, isSignedIn } from '../../../lib/auth-session';
import { landingPath } from '../../../lib/role-landing';
import type { SignInInput, SignInResult } from '../api/sign-in';
import { AuthLayout } from './auth-layout';
import { SubmitButton } from './form-fields';

/**
 * The form's checks and Amplify's sign-in (with zod, about 45 kB gzipped) load when the person
 * starts on the form (focus) or submits it, not with the page.
 */
const loadSignIn = () => import('../api/sign-in');

/** Only an account with an authenticator app reaches the code step: its form loads then, off the login page's first load. */
const TotpCodeForm = lazy(() => import('./totp-code-form').then((m) => ({ default: m.TotpCodeForm })));

type Field = keyof SignInInput;

const AFTER_SIGN_IN = paths.moduleDashboard.to();

/**
 * The path a `reurl` names, if it is a path on this site; undefined without one. Only same-site
 * paths: a crafted link must not hand a fresh session to another origin.
 */
export const returnPath = (reurl: string | undefined): string | undefined => {
  if (!reurl) return undefined;
  let path = reurl;
  try {
    path = decodeURIComponent(reurl);
  } catch {
    // Not valid percent-encoding (React Router may already have decoded it): use it as it is.
  }
  const sameSite = path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
  return sameSite ? path : undefined;
};

/**
 * After sign-in: the decoded reurl, else the role's landing (farmer §2.1 says /dashboard, which is
 * the farmer's; operator §2 /redirect sends each operator role to its area, so sign-in does too and
 * no operator passes through the No Permission page).
 */
const afterSignIn = async (reurl: string | undefined): Promise<string> => returnPath(reurl) ?? (await getSession().then((s) => (s ? landingPath(s) : AFTER_SIGN_IN)));

/** /dts/login/{reurl?} (farmer §2.1, §5). */
export function LoginPage() {
  const { reurl } = useParams();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SignInInput>({ email: '', password: '' });
  const [error, setError] = useState<{ readonly field: Field; readonly message: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  // The code step: an account with an authenticator app answers its code after the password.
  const [codeStep, setCodeStep] = useState(false);
  const mounted = useRef(true);
  const inputs = { email: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };
  const ids = { email: useId(), password: useId(), error: useId() };

  useEffect(() => {
    mounted.current = true;
    // Already signed in (a bookmarked login page): skip the form.
    void isSignedIn().then(async (yes) => {
      if (!yes) return;
      const to = await afterSignIn(undefined);
      if (mounted.current) navigate(to, { replace: true });
    });
    return () => {
      mounted.current = false;
    };
  }, [navigate]);

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((prev) => ({ ...prev, [field]: event.target.value }));
    if (error?.field === field) setError(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const { signInInputSchema, signInWithPassword } = await loadSignIn();
    const parsed = signInInputSchema.safeParse(values);
    if (!parsed.success) {
      // Only the first error is shown (farmer §5).
      const issue = parsed.error.issues[0];
      const field: Field = issue?.path[0] === 'password' ? 'password' : 'email';
      setError({ field, message: issue?.message ?? 'Please check the form' });
      inputs[field].current?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    await finish(await signInWithPassword(parsed.data));
  };

  const finish = async (result: SignInResult) => {
    if (!mounted.current) return;
    setSubmitting(false);
    if (!result.ok && result.totp) {
      setCodeStep(true);
      return;
    }
    if (!result.ok) {
      snackbar.show(result.message, 'error');
      return;
    }
    // Nothing cached for a previous user may leak into this session.
    queryClient.clear();
    navigate(await afterSignIn(reurl), { replace: true });
  };

  /** The code step: null when signed in (finish has moved on), else the message to show under the field. */
  const submitCode = async (code: string): Promise<string | null> => {
    const { confirmTotpCode } = await loadSignIn();
    const result = await confirmTotpCode(code);
    if (!result.ok) return result.message;
    await finish(result);
    return null;
  };

  const invalid = (field: Field) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {});

  if (codeStep) {
    return (
      <AuthLayout title="Sign in">
        <Suspense fallback={null}>
          <TotpCodeForm name="Sign-in code" submit={submitCode}>
            <p className="auth-card__text">Enter the 6-digit code your authenticator app shows for Vat-Man.</p>
          </TotpCodeForm>
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign in"
      footer={
        <>
          <Link to={paths.forgotPassword.to()}>Forgot password?</Link>
          <span>
            New to Vat-Man? <Link to={paths.register.to()}>Sign up</Link>
          </span>
        </>
      }
    >
      <form className="form" noValidate onFocus={() => void loadSignIn()} onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <div className="form__field">
          <label htmlFor={ids.email}>Email</label>
          <input
            ref={inputs.email}
            id={ids.email}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={values.email}
            onChange={change('email')}
            {...invalid('email')}
          />
        </div>
        <div className="form__field">
          <label htmlFor={ids.password}>Password</label>
          <div className="form__password">
            <input
              ref={inputs.password}
              id={ids.password}
              name="password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              value={values.password}
              onChange={change('password')}
              {...invalid('password')}
            />
            <button
              type="button"
              className="form__reveal"
              aria-pressed={showPassword}
              onClick={() => setShowPassword((show) => !show)}
            >
              {showPassword ? 'Hide' : 'Show'}
            </button>
          </div>
        </div>
        {error && (
          <p id={ids.error} className="form__error" role="alert">
            {error.message}
          </p>
        )}
        <SubmitButton submitting={submitting} busyLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
