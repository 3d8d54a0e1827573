import { useId } from 'react';
import type { User } from '@shared/entities/user';
import { VerifiedBadge } from './verified-badge';

export type Verifiable = 'email' | 'phone';
interface EditableNames {
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string;
  readonly onChange: (field: 'firstName' | 'lastName' | 'phone', value: string) => void;
}

/**
 * The person's First Name, Last Name, Email Address and Phone, each contact with its verified icon
 * (farmer §2.10, §2.16). The email is always read-only; the names and phone are editable when
 * `editable` is given (the profile page) and read-only otherwise (the enquiry page).
 */
export function PersonFields({ user, editable, onVerify }: { readonly user: User; readonly editable?: EditableNames; readonly onVerify: (what: Verifiable) => void }) {
  const ids = { first: useId(), last: useId(), email: useId(), phone: useId() };
  const field = (name: 'firstName' | 'lastName' | 'phone') =>
    editable ? { value: editable[name], onChange: (event: { target: { value: string } }) => editable.onChange(name, event.target.value) } : { value: user[name], readOnly: true };
  return (
    <>
      <div className="form__field">
        <label htmlFor={ids.first}>First Name</label>
        <input id={ids.first} autoComplete="given-name" {...field('firstName')} />
      </div>
      <div className="form__field">
        <label htmlFor={ids.last}>Last Name</label>
        <input id={ids.last} autoComplete="family-name" {...field('lastName')} />
      </div>
      <div className="form__field">
        <label htmlFor={ids.email}>Email Address</label>
        <div className="profile__with-badge">
          <input id={ids.email} value={user.email} readOnly />
          <VerifiedBadge flag={user.email_verify} what="Email" onVerify={() => onVerify('email')} />
        </div>
      </div>
      <div className="form__field">
        <label htmlFor={ids.phone}>Phone</label>
        <div className="profile__with-badge">
          <input id={ids.phone} type="tel" autoComplete="tel" {...field('phone')} />
          <VerifiedBadge flag={user.phone_verify} what="Phone" onVerify={() => onVerify('phone')} />
        </div>
      </div>
    </>
  );
}
