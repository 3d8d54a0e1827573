import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ADDABLE_TAGS, ORGANIZATION_MESSAGES, type OrganizationTag } from '@shared/entities/organization';

export interface DrawerValues {
  readonly tag: OrganizationTag;
  readonly name: string;
  readonly contact: string;
  readonly address: string;
  readonly email: string;
  readonly phone: string;
}

interface OrganizationDrawerProps {
  /** add: a new sub-organization (tag among Group, Regional, Branch); edit: the tag is locked (§4). */
  readonly mode: 'add' | 'edit';
  readonly initial: DrawerValues;
  readonly saving: boolean;
  readonly onSave: (values: DrawerValues) => void;
  readonly onClose: () => void;
}

const FIELDS = [
  ['name', 'Name', 'text'],
  ['contact', 'Contact', 'text'],
  ['address', 'Address', 'text'],
  ['email', 'Email', 'email'],
  ['phone', 'Phone', 'tel'],
] as const;

/**
 * The side drawer of farmer §2.12: tag (a select, disabled when editing), name, contact, address,
 * email, phone. Escape and the backdrop close it; the focus goes to the name and back on close.
 */
export function OrganizationDrawer({ mode, initial, saving, onSave, onClose }: OrganizationDrawerProps) {
  const [values, setValues] = useState<DrawerValues>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    nameRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (values.name.trim() === '') {
      setProblem(ORGANIZATION_MESSAGES.nameRequired);
      nameRef.current?.focus();
      return;
    }
    onSave(values);
  };
  const tags: readonly OrganizationTag[] = mode === 'add' ? ADDABLE_TAGS : [values.tag];

  return (
    <div className="organization-drawer__backdrop" onClick={() => close.current()}>
      <aside className="organization-drawer" role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(event) => event.stopPropagation()}>
        <h2 id={titleId} className="organization-drawer__title">
          {mode === 'add' ? 'Add organization' : 'Edit organization'}
        </h2>
        <form className="form" onSubmit={submit} noValidate>
          <div className="form__field">
            <label htmlFor={`${titleId}-tag`}>Tag</label>
            <select
              id={`${titleId}-tag`}
              className="organization-drawer__select"
              value={values.tag}
              disabled={mode === 'edit'}
              onChange={(event) => setValues((v) => ({ ...v, tag: event.target.value as OrganizationTag }))}
            >
              {tags.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          {FIELDS.map(([field, label, type]) => (
            <div className="form__field" key={field}>
              <label htmlFor={`${titleId}-${field}`}>{label}</label>
              <input
                id={`${titleId}-${field}`}
                ref={field === 'name' ? nameRef : undefined}
                type={type}
                value={values[field]}
                aria-invalid={field === 'name' && problem ? true : undefined}
                onChange={(event) => {
                  setValues((v) => ({ ...v, [field]: event.target.value }));
                  if (field === 'name') setProblem(null);
                }}
              />
            </div>
          ))}
          {problem && (
            <p className="form__error" role="alert">
              {problem}
            </p>
          )}
          <div className="organization-drawer__actions">
            <button type="button" className="button button--text" onClick={() => close.current()}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={saving}>
              Save
            </button>
          </div>
        </form>
      </aside>
    </div>
  );
}
