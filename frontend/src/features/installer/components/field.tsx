import { useId, type ReactNode } from 'react';

/** A labelled input of the installer forms, with its 'Required Field' (or rule) message under it. */
export function Field({ label, problem, children }: { readonly label: string; readonly problem: string | undefined; readonly children: (props: { 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode }) {
  const id = useId();
  return (
    <label className="installer__field">
      {label}
      {children({ 'aria-invalid': problem !== undefined, 'aria-describedby': problem ? id : undefined })}
      {problem && (
        <span className="installer__required" id={id}>
          {problem}
        </span>
      )}
    </label>
  );
}
