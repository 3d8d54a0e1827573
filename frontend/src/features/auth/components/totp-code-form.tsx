import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { totpCodeSchema } from '../api/sign-in';
import { FormError, SubmitButton } from './form-fields';

/**
 * The authenticator code step, on the login page and the enrolment screen: one
 * 6-digit field, checked before it is sent. `submit` answers an error to show, or null when the
 * code was taken (the page moves on).
 */
export function TotpCodeForm({
  name,
  label = 'Authenticator code',
  invalid,
  children,
  submit,
}: {
  readonly name: string;
  /** The field's label: the app's code by default, or the emailed one. */
  readonly label?: string;
  /** The message for a code that is not 6 digits (the app's wording by default). */
  readonly invalid?: string;
  readonly children?: ReactNode;
  readonly submit: (code: string) => Promise<string | null>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const mounted = useRef(true);
  const ids = { code: useId(), error: useId() };

  useEffect(() => {
    mounted.current = true;
    input.current?.focus();
    return () => {
      mounted.current = false;
    };
  }, []);

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const parsed = totpCodeSchema.safeParse(code);
    const problem = parsed.success ? await (setSubmitting(true), submit(parsed.data)) : (invalid ?? parsed.error.issues[0]?.message ?? 'Please check the code');
    if (!mounted.current) return;
    setSubmitting(false);
    setError(problem);
    if (problem) input.current?.focus();
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void send(event)} aria-label={name}>
      {children}
      <div className="form__field">
        <label htmlFor={ids.code}>{label}</label>
        <input
          ref={input}
          id={ids.code}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setError(null);
          }}
          {...(error ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {})}
        />
      </div>
      <FormError id={ids.error} message={error ?? undefined} />
      <SubmitButton submitting={submitting} busyLabel="Checking…">
        Verify
      </SubmitButton>
    </form>
  );
}
