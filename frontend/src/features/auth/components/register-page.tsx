import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { signUpUserSchema } from '@shared/api/actions/user';
import { useSnackbar } from '../../../components/snackbar';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { signUp } from '../api/account';
import { signInWithPassword } from '../api/sign-in';
import { useBotCheck } from '../hooks/use-bot-check';
import { useFirstErrorForm } from '../hooks/use-first-error-form';
import { AuthLayout } from './auth-layout';
import { EmailField, FormError, PasswordField, SubmitButton, TextField } from './form-fields';

/** /dts/register (farmer §2.1, §5): sign up, then sign in through Amplify and open the milk dashboard. */
export function RegisterPage() {
  const client = useApiClient();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const form = useFirstErrorForm(signUpUserSchema, { firstName: '', lastName: '', email: '', phone: '', password: '' });
  const botCheck = useBotCheck();

  const send = form.onSubmit(async (user) => {
    try {
      await signUp(client, user, botCheck.response);
    } catch {
      botCheck.renew();
      return; // The API client has announced it (snackbar).
    }
    const signedIn = await signInWithPassword({ email: user.email, password: user.password });
    if (!signedIn.ok) {
      // The account exists; the farmer can sign in once the cause (e.g. confirmation) is cleared.
      snackbar.show(signedIn.message, 'error');
      navigate(paths.login.to(), { replace: true });
      return;
    }
    queryClient.clear();
    navigate(paths.milkDashboard.to(), { replace: true });
  }, botCheck.check);

  return (
    <AuthLayout
      title="Sign up"
      footer={
        <span>
          Already have an account? <Link to={paths.login.to()}>Sign in</Link>
        </span>
      }
    >
      <form className="form" noValidate onSubmit={send} aria-label="Sign up">
        <div className="form__row">
          <TextField label="First name" autoComplete="given-name" {...form.field('firstName')} />
          <TextField label="Last name" autoComplete="family-name" {...form.field('lastName')} />
        </div>
        <EmailField {...form.field('email')} />
        <TextField label="Phone" type="tel" inputMode="tel" autoComplete="tel" {...form.field('phone')} />
        <PasswordField label="Password" autoComplete="new-password" {...form.field('password')} />
        {botCheck.widget}
        <FormError id={form.errorId} message={form.error?.message} />
        <SubmitButton submitting={form.submitting} busyLabel="Signing up…">
          Sign up
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
