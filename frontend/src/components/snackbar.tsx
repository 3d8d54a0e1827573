import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { SNACKBAR_HIDE_MS } from '../../../shared/constants';
import './snackbar.css';

export const SNACKBAR_DEFAULT_MESSAGE = 'An error occurred';

type SnackbarTone = 'info' | 'success' | 'error';

export interface SnackbarApi {
  /**
   * Shows a message (farmer §8): nothing → the default text; arrays → one line each; objects →
   * their JSON text. A new message replaces the current one and restarts the 6-second timer.
   */
  readonly show: (message?: unknown, tone?: SnackbarTone) => void;
  readonly hide: () => void;
}

const itemText = (item: unknown): string => {
  if (typeof item === 'string') return item;
  if (item instanceof Error) return item.message;
  if (item !== null && typeof item === 'object') return JSON.stringify(item);
  return String(item);
};

export const snackbarText = (message?: unknown): string => {
  if (message === undefined || message === null) return SNACKBAR_DEFAULT_MESSAGE;
  const text = Array.isArray(message) ? message.map(itemText).join('\n') : itemText(message);
  return text.trim() === '' ? SNACKBAR_DEFAULT_MESSAGE : text;
};

interface Shown {
  readonly id: number;
  readonly text: string;
  readonly tone: SnackbarTone;
}

const SnackbarContext = createContext<SnackbarApi | null>(null);

export function SnackbarProvider({ children }: { readonly children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);

  const show = useCallback((message?: unknown, tone: SnackbarTone = 'info') => {
    setShown((prev) => ({ id: (prev?.id ?? 0) + 1, text: snackbarText(message), tone }));
  }, []);
  const hide = useCallback(() => setShown(null), []);

  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown((current) => (current?.id === shown.id ? null : current)), SNACKBAR_HIDE_MS);
    return () => clearTimeout(timer);
  }, [shown]);

  const api = useMemo(() => ({ show, hide }), [show, hide]);

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <div className="snackbar-region" aria-live="polite">
        {shown && (
          <div className={`snackbar snackbar--${shown.tone}`} role={shown.tone === 'error' ? 'alert' : 'status'}>
            <p className="snackbar__text" data-testid="snackbar-text">
              {shown.text}
            </p>
            <button type="button" className="snackbar__close" aria-label="Close" onClick={hide}>
              ×
            </button>
          </div>
        )}
      </div>
    </SnackbarContext.Provider>
  );
}

export const useSnackbar = (): SnackbarApi => {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error('useSnackbar must be used inside <SnackbarProvider>');
  return api;
};
