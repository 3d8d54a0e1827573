import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Dialog } from './dialog';

const CONFIRM_DEFAULT_TITLE = 'Are you sure?';
const CONFIRM_DEFAULT_BODY = 'This operation requires your second confirmation.';

interface ConfirmOptions {
  readonly title?: string;
  readonly body?: ReactNode;
  /** The OK button appears only when this exists. */
  readonly onOk?: () => void;
  /** The Cancel button appears only when this exists; dismissing (Escape, backdrop) also calls it. */
  readonly onCancel?: () => void;
  readonly okLabel?: string;
  readonly cancelLabel?: string;
}

export type Confirm = (options?: ConfirmOptions) => void;

const ConfirmContext = createContext<Confirm | null>(null);

function ConfirmDialog({ options, onClose }: { readonly options: ConfirmOptions; readonly onClose: () => void }) {
  const { title = CONFIRM_DEFAULT_TITLE, body = CONFIRM_DEFAULT_BODY, onOk, onCancel, okLabel = 'OK', cancelLabel = 'Cancel' } = options;
  const cancel = () => {
    onClose();
    onCancel?.();
  };
  const ok = () => {
    onClose();
    onOk?.();
  };
  return (
    <Dialog
      title={title}
      onDismiss={cancel}
      actions={
        (onCancel || onOk) && (
          <>
            {onCancel && (
              <button type="button" className="button button--text" onClick={cancel}>
                {cancelLabel}
              </button>
            )}
            {onOk && (
              <button type="button" className="button button--primary" onClick={ok} data-autofocus>
                {okLabel}
              </button>
            )}
          </>
        )
      }
    >
      {body}
    </Dialog>
  );
}

/** The global confirm dialog (farmer §8, operator §2 Global elements). */
export function ConfirmDialogProvider({ children }: { readonly children: ReactNode }) {
  const [open, setOpen] = useState<{ readonly id: number; readonly options: ConfirmOptions } | null>(null);
  const confirm = useCallback<Confirm>((options = {}) => setOpen((prev) => ({ id: (prev?.id ?? 0) + 1, options })), []);
  const close = useCallback(() => setOpen(null), []);

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {open && <ConfirmDialog key={open.id} options={open.options} onClose={close} />}
    </ConfirmContext.Provider>
  );
}

export const useConfirm = (): Confirm => {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmDialogProvider>');
  return confirm;
};
