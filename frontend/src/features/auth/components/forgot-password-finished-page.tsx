import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AuthLayout } from './auth-layout';

/** /dts/password/forgot/finished (farmer §2.1). Worded so it does not reveal whether the address has an account. */
export function ForgotPasswordFinishedPage() {
  return (
    <AuthLayout title="Check your email" footer={<Link to={paths.login.to()}>Back to sign in</Link>}>
      <p className="auth-card__text">
        If an account exists for that address, we have sent it an email with a link to reset your password. The link can be used once.
      </p>
      <p className="auth-card__text auth-card__text--muted">No email after a few minutes? Check your spam folder, or request a new link.</p>
      <Link className="button button--primary button--block" to={paths.forgotPassword.to()}>
        Request a new link
      </Link>
    </AuthLayout>
  );
}
