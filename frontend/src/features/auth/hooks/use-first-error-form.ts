import { useId, useRef, useState, type FormEvent } from 'react';
import type * as z from 'zod';

interface FieldError<F extends string> {
  /** The field in error, or null for a check of the whole form (the bot-check). */
  readonly field: F | null;
  readonly message: string;
}

/**
 * The first problem of a form (farmer §5: only the first error per form is shown). Zod reports
 * issues in the order of the schema's keys, which is the order the form shows its fields.
 */
const firstError = <F extends string>(error: z.ZodError, fields: readonly F[]): FieldError<F> & { readonly field: F } => {
  const issue = error.issues[0];
  const key = issue?.path[0];
  const field = fields.find((f) => f === key) ?? fields[0];
  if (field === undefined) throw new Error('firstError needs at least one field');
  return { field, message: issue?.message ?? 'Please check the form' };
};

/**
 * State of a public form: string values, the one error shown, and a submit handler that parses
 * with the shared schema first and sends nothing while the form is invalid. Enter submits
 * because the inputs sit in a real <form>.
 */
export function useFirstErrorForm<F extends string, Out>(
  schema: z.ZodType<Out>,
  initial: Readonly<Record<F, string>>,
  toInput: (values: Readonly<Record<F, string>>) => unknown = (values) => values,
) {
  const fields = Object.keys(initial) as F[];
  const [values, setValues] = useState(initial);
  const [error, setError] = useState<FieldError<F> | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const errorId = useId();
  const refs = useRef(new Map<F, HTMLInputElement>());

  const change = (field: F) => (event: { target: { value: string } }) => {
    const { value } = event.target;
    setValues((prev) => ({ ...prev, [field]: value }));
    if (error?.field === field) setError(null);
  };

  /** Props for a field's input: value, change handler, ref, and the error wiring when it is the one in error. */
  const field = (name: F) => ({
    name,
    value: values[name],
    onChange: change(name),
    ref: (el: HTMLInputElement | null) => {
      if (el) refs.current.set(name, el);
      else refs.current.delete(name);
    },
    ...(error?.field === name ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {}),
  });

  /**
   * Wraps the send: validation first; the send runs only with parsed data, once at a time.
   * `check` runs after the fields pass (their errors come first) and may name a problem of the
   * whole form, which is then the one error shown.
   */
  const onSubmit = (send: (data: Out) => Promise<void>, check?: () => string | undefined) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const parsed = schema.safeParse(toInput(values));
    if (!parsed.success) {
      const first = firstError(parsed.error, fields);
      setError(first);
      refs.current.get(first.field)?.focus();
      return;
    }
    const problem = check?.();
    if (problem) {
      setError({ field: null, message: problem });
      return;
    }
    setError(null);
    setSubmitting(true);
    void send(parsed.data).finally(() => setSubmitting(false));
  };

  return { values, setValues, error, errorId, field, onSubmit, submitting } as const;
}

