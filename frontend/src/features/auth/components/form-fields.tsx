import { useId, useState, type InputHTMLAttributes, type Ref } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'ref'> & { readonly ref?: Ref<HTMLInputElement> };

/** A labelled input of the public forms. */
export function TextField({ label, ...input }: InputProps & { readonly label: string }) {
  const id = useId();
  return (
    <div className="form__field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </div>
  );
}

/** A labelled password input with a Show/Hide toggle. */
export function PasswordField({ label, ...input }: Omit<InputProps, 'type'> & { readonly label: string }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="form__field">
      <label htmlFor={id}>{label}</label>
      <div className="form__password">
        <input id={id} type={shown ? 'text' : 'password'} {...input} />
        <button type="button" className="form__reveal" aria-pressed={shown} onClick={() => setShown((show) => !show)}>
          {shown ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}

/** The one error of a form (farmer §5), announced when it appears. */
export function FormError({ id, message }: { readonly id: string; readonly message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="form__error" role="alert">
      {message}
    </p>
  );
}

/** The email input of the public forms: no capitals or spelling marks forced on an address. */
export function EmailField({ label = 'Email', ...input }: Omit<InputProps, 'type' | 'inputMode' | 'autoComplete'> & { readonly label?: string }) {
  return <TextField label={label} type="email" inputMode="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...input} />;
}

/** A public form's one submit button, saying what it is doing while the form is sent. */
export function SubmitButton({ submitting, busyLabel, children }: { readonly submitting: boolean; readonly busyLabel: string; readonly children: string }) {
  return (
    <button type="submit" className="button button--primary button--block" disabled={submitting}>
      {submitting ? busyLabel : children}
    </button>
  );
}
