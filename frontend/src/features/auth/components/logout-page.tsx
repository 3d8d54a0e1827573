import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { signOutUser } from '../../../lib/auth-session';

/** /logout (operator §2 Partner shells): clears the stored authentication, then the login page. */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    let active = true;
    // Signing out twice (StrictMode runs effects twice in development) is harmless.
    void signOutUser().then(() => {
      queryClient.clear();
      if (active) navigate(paths.login.to(), { replace: true });
    });
    return () => {
      active = false;
    };
  }, [navigate, queryClient]);

  return (
    <main className="page-message" aria-busy="true">
      <p>Signing out…</p>
    </main>
  );
}
