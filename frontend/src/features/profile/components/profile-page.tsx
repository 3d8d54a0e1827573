import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertEmailNotice } from '../../../components/alert-email-notice';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { MSG_EMAIL_VERIFIED, MSG_SUCCESS, profileEditSchema } from '@shared/api/actions/profile';
import type { User } from '@shared/entities/user';
import { useSnackbar } from '../../../components/snackbar';
import { useApiClient } from '../../../lib/api-client-provider';
import { changePassword, checkEmailCode, profileQuery, refreshPerson, saveProfile } from '../api/profile';
import { PersonFields, type Verifiable } from './person-fields';
import { VerifyEmailDialog, VerifyPhoneDialog } from './verify-dialogs';
import './profile.css';

type Open = Verifiable | null;

/**
 * /dts/user/profile/{verification?} in the main shell, /dts/{partner}/profile/{verification?} and
 * /dts/westlands/profile/{verification?} in the partner shells (farmer §2.10, operator §2): name,
 * email and phone with their verification, subscription, password. A code in the route is the
 * emailed link: it checks the email once, then the route drops it.
 */
export function ProfilePage() {
  const client = useApiClient();
  const query = useQuery(profileQuery(client));
  const [open, setOpen] = useState<Open>(null);
  // After the profile has loaded: a check racing the first read could be overtaken by it.
  useEmailLink(query.isSuccess);

  return (
    <section className="profile">
      <h1 className="page__title">Profile</h1>
      <AlertEmailNotice />
      {!query.data ? (
        <p className="page__note">{query.isError ? 'Your profile could not be loaded.' : 'Loading…'}</p>
      ) : (
        <>
          <ProfileForm key={query.data.phone} user={query.data} onVerify={setOpen} />
          <PasswordForm />
        </>
      )}
      {open === 'email' && <VerifyEmailDialog onClose={() => setOpen(null)} />}
      {open === 'phone' && <VerifyPhoneDialog onClose={() => setOpen(null)} />}
    </section>
  );
}

/** The emailed link's code (farmer §2.10: 'A verification token in the route checks the email'), checked once. */
function useEmailLink(ready: boolean) {
  const { verification } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useApiClient();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const checked = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || !verification || checked.current === verification) return;
    checked.current = verification;
    const withoutCode = location.pathname.slice(0, location.pathname.length - verification.length - 1);
    void checkEmailCode(client, verification)
      .then(() => {
        snackbar.show(MSG_EMAIL_VERIFIED, 'success');
        void refreshPerson(queryClient);
      })
      .catch(() => undefined) // the server's 'Email verification failed' is in the snackbar
      .finally(() => navigate(withoutCode, { replace: true }));
  }, [ready, verification, location.pathname, client, snackbar, queryClient, navigate]);
}

function ProfileForm({ user, onVerify }: { readonly user: User; readonly onVerify: (what: Open) => void }) {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ firstName: user.firstName, lastName: user.lastName, phone: user.phone, subscribed: user.subscribed });
  const [problem, setProblem] = useState<string | null>(null);
  const subscribedId = useId();
  const save = useMutation({
    mutationFn: () => saveProfile(client, profileEditSchema.parse(values)),
    onSuccess: () => {
      snackbar.show(MSG_SUCCESS, 'success');
      void refreshPerson(queryClient);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The spec shows no client validation (§5); the server's rule is checked here only to say it sooner.
    const parsed = profileEditSchema.safeParse(values);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setProblem(null);
    save.mutate();
  };

  return (
    <form className="card" aria-label="Profile" onSubmit={submit} noValidate>
      <h2 className="card__title">Profile</h2>
      <PersonFields
        user={user}
        editable={{ ...values, onChange: (field, value) => setValues((v) => ({ ...v, [field]: value })) }}
        onVerify={onVerify}
      />
      <label className="profile__check" htmlFor={subscribedId}>
        <input id={subscribedId} type="checkbox" checked={values.subscribed} onChange={() => setValues((v) => ({ ...v, subscribed: !v.subscribed }))} />
        Subscribe to Vat-Man news
      </label>
      {problem && (
        <p className="profile__error" role="alert">
          {problem}
        </p>
      )}
      <div className="profile__actions">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          Save
        </button>
      </div>
    </form>
  );
}

const NO_PASSWORDS = { password: '', password1: '', password2: '' };

/** Change password (farmer §2.10, §7): current, new, repeat; the three clear on success. */
function PasswordForm() {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const [values, setValues] = useState(NO_PASSWORDS);
  const ids = { current: useId(), next: useId(), repeat: useId() };
  const save = useMutation({
    mutationFn: () => changePassword(client, values),
    onSuccess: () => {
      snackbar.show(MSG_SUCCESS, 'success');
      setValues(NO_PASSWORDS);
    },
  });
  const field = (name: keyof typeof NO_PASSWORDS) => ({
    type: 'password',
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="card" aria-label="Change password" onSubmit={submit} noValidate>
      <h2 className="card__title">Change password</h2>
      <div className="form__field">
        <label htmlFor={ids.current}>Current password</label>
        <input id={ids.current} autoComplete="current-password" {...field('password')} />
      </div>
      <div className="form__field">
        <label htmlFor={ids.next}>New password</label>
        <input id={ids.next} autoComplete="new-password" {...field('password1')} />
      </div>
      <div className="form__field">
        <label htmlFor={ids.repeat}>Repeat new password</label>
        <input id={ids.repeat} autoComplete="new-password" {...field('password2')} />
      </div>
      <div className="profile__actions">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          Change password
        </button>
      </div>
    </form>
  );
}
