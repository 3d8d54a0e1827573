import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { resetUserSchema } from '@shared/api/actions/user';
import { useConfirm } from '../../../components/confirm-dialog';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { resetPassword } from '../api/account';
import { useBotCheck } from '../hooks/use-bot-check';
import { useFirstErrorForm } from '../hooks/use-first-error-form';
import { AuthLayout } from './auth-layout';
import { FormError, PasswordField, SubmitButton } from './form-fields';

const RESET_DONE_TITLE = 'Password has been reset';
const RESET_DONE_BODY = 'Enjoy it.';

/** /dts/password/reset/{token} (farmer §2.1): a new password; the token comes from the emailed link. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const client = useApiClient();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [done, setDone] = useState(false);
  const form = useFirstErrorForm(resetUserSchema, { password: '' }, ({ password }) => ({ password, token }));
  const botCheck = useBotCheck();

  const send = form.onSubmit(async (user) => {
    try {
      await resetPassword(client, user, botCheck.response);
    } catch {
      botCheck.renew();
      return; // A bad or expired link is a 422 whose message the snackbar shows.
    }
    setDone(true);
    confirm({ title: RESET_DONE_TITLE, body: RESET_DONE_BODY, onOk: () => navigate(paths.login.to(), { replace: true }) });
  }, botCheck.check);

  return (
    <AuthLayout title="Reset password" footer={<Link to={paths.login.to()}>Back to sign in</Link>}>
      {done ? (
        <p className="auth-card__text">
          Your password has been reset. <Link to={paths.login.to()}>Sign in</Link>
        </p>
      ) : (
        <form className="form" noValidate onSubmit={send} aria-label="Reset password">
          <PasswordField label="New password" autoComplete="new-password" {...form.field('password')} />
          {botCheck.widget}
          <FormError id={form.errorId} message={form.error?.message} />
          <SubmitButton submitting={form.submitting} busyLabel="Saving…">
            Reset password
          </SubmitButton>
        </form>
      )}
    </AuthLayout>
  );
}
