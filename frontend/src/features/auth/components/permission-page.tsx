import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { signOutUser } from '../../../lib/auth-session';
import { useWebConfig } from '../../../lib/use-web-config';
import { AuthLayout } from './auth-layout';

/** /dts/permission (farmer §1, §2.1): a signed-in account that no farm is linked to yet. */
export function PermissionPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useWebConfig();
  const supportUrl = config?.supportUrl;
  const phones = config?.supportPhones ?? [];
  const [leaving, setLeaving] = useState(false);

  const logout = async () => {
    setLeaving(true);
    await signOutUser();
    queryClient.clear();
    navigate(paths.login.to(), { replace: true });
  };

  return (
    <AuthLayout title="No Permission">
      <p className="auth-card__text">Your account is not linked to a farm yet, so there is no farm data to show.</p>
      <p className="auth-card__text">
        Please contact your provider and ask them to link your farm to this account. Once it is linked, sign in again to see your farm.
      </p>
      {phones.length > 0 && (
        <ul className="auth-card__text" aria-label="Support phone numbers">
          {phones.map((p) => (
            <li key={p.phone}>
              {p.label} support: <a href={`tel:${p.phone.replace(/\s/g, '')}`}>{p.phone}</a>
            </li>
          ))}
        </ul>
      )}
      <div className="auth-card__actions">
        {supportUrl && (
          <a className="button button--text" href={supportUrl} target="_blank" rel="noreferrer">
            Contact support
          </a>
        )}
        <button type="button" className="button button--primary" disabled={leaving} onClick={() => void logout()}>
          Logout
        </button>
      </div>
    </AuthLayout>
  );
}
