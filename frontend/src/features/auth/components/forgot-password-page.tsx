import { Link, useNavigate } from 'react-router-dom';
import { forgotUserSchema } from '@shared/api/actions/user';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { requestPasswordReset } from '../api/account';
import { useFirstErrorForm } from '../hooks/use-first-error-form';
import { AuthLayout } from './auth-layout';
import { EmailField, FormError, SubmitButton } from './form-fields';

/** /dts/password/forgot (farmer §2.1): asks for the email the reset link goes to. */
export function ForgotPasswordPage() {
  const client = useApiClient();
  const navigate = useNavigate();
  const form = useFirstErrorForm(forgotUserSchema, { email: '' });

  const send = form.onSubmit(async ({ email }) => {
    try {
      await requestPasswordReset(client, email);
    } catch {
      return; // Announced by the API client.
    }
    navigate(paths.forgotPasswordFinished.to(), { replace: true });
  });

  return (
    <AuthLayout title="Forgot password" footer={<Link to={paths.login.to()}>Back to sign in</Link>}>
      <p className="auth-card__text">Enter the email address of your account and we will send you a link to set a new password.</p>
      <form className="form" noValidate onSubmit={send} aria-label="Forgot password">
        <EmailField {...form.field('email')} />
        <FormError id={form.errorId} message={form.error?.message} />
        <SubmitButton submitting={form.submitting} busyLabel="Sending…">
          Send reset link
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
