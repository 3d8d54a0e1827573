import { useEffect, useId, useRef, type ReactNode } from 'react';
import './confirm-dialog.css';

interface DialogProps {
  readonly title: string;
  /** Escape and a click on the backdrop call it, as does the caller's own Cancel. */
  readonly onDismiss: () => void;
  readonly children?: ReactNode;
  /** The buttons, right-aligned under the body; one may carry `data-autofocus`. */
  readonly actions?: ReactNode;
}

/**
 * A modal dialog: focus moves in (to `[data-autofocus]`, else the dialog) and back out on close,
 * Escape and the backdrop dismiss it. The global confirm dialog and the screens' own dialogs
 * (the verification dialogs of farmer §2.10) are this.
 */
export function Dialog({ title, onDismiss, children, actions }: DialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    (dialog?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog)?.focus();
    return () => previous?.focus();
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="confirm-backdrop" onClick={() => dismiss.current()}>
      <div
        ref={dialogRef}
        className="confirm-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={children === undefined ? undefined : bodyId}
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={titleId} className="confirm-dialog__title">
          {title}
        </h2>
        {children !== undefined && (
          <div id={bodyId} className="confirm-dialog__body">
            {children}
          </div>
        )}
        {actions && <div className="confirm-dialog__actions">{actions}</div>}
      </div>
    </div>
  );
}

interface NoticeDialogProps {
  readonly title: string;
  /** Its one button, Escape and the backdrop all call it: a notice has nothing to choose. */
  readonly onClose: () => void;
  /** @default 'Close' */
  readonly closeLabel?: string;
  /** Whether the button takes the focus (else the dialog itself does). @default true */
  readonly focusButton?: boolean;
  readonly children?: ReactNode;
}

/** A dialog that tells and has one button to close it (an outcome, a result, the help player). */
export function NoticeDialog({ title, onClose, closeLabel = 'Close', focusButton = true, children }: NoticeDialogProps) {
  return (
    <Dialog
      title={title}
      onDismiss={onClose}
      actions={
        <button type="button" className="button button--primary" data-autofocus={focusButton || undefined} onClick={onClose}>
          {closeLabel}
        </button>
      }
    >
      {children}
    </Dialog>
  );
}
