import { useId, useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';

interface AddUserDialogProps {
  readonly adding: boolean;
  /** The server's refusal (an address that is no registered user, or one not yet verified), shown in the dialog. */
  readonly problem: string | null;
  readonly onAdd: (email: string) => void;
  readonly onClose: () => void;
}

/** Farmer §2.12 add-user dialog: asks for an email and says the user must first register in the system. */
export function AddUserDialog({ adding, problem, onAdd, onClose }: AddUserDialogProps) {
  const [email, setEmail] = useState('');
  const id = useId();
  const formId = `${id}-form`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAdd(email.trim());
  };
  return (
    <Dialog
      title="Add a user"
      onDismiss={onClose}
      actions={
        <>
          <button type="button" className="button button--text" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={adding}>
            Add
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        <p className="page__note">The user must first register in the system: enter the email they registered with.</p>
        <div className="form__field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input id={`${id}-email`} type="email" value={email} onChange={(event) => setEmail(event.target.value)} data-autofocus aria-invalid={problem ? true : undefined} />
        </div>
        {problem && (
          <p className="form__error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  );
}
