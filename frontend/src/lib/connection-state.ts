import { useSyncExternalStore } from 'react';

/** The browser's own connection (navigator.onLine and its events). */
const subscribeOnline = (notify: () => void) => {
  window.addEventListener('online', notify);
  window.addEventListener('offline', notify);
  return () => {
    window.removeEventListener('online', notify);
    window.removeEventListener('offline', notify);
  };
};
export const useOnline = (): boolean => useSyncExternalStore(subscribeOnline, () => navigator.onLine, () => true);

/**
 * What the service worker (frontend/build/service-worker.ts) says of the API answers it hands the
 * page: from the network, or saved earlier (then when they were saved). The page keeps the oldest
 * saved time since the last answer from the network: how old the numbers on screen are.
 */
interface AnswerNote {
  readonly type: 'vatman-answer';
  readonly source: 'network' | 'cache';
  /** Epoch ms the answer was saved (a cached one); absent for the network's. */
  readonly savedAt?: number;
}

let savedAt: number | undefined;
const listeners = new Set<() => void>();
let listening = false;

const onMessage = (event: MessageEvent) => {
  const note = event.data as Partial<AnswerNote> | null;
  if (!note || note.type !== 'vatman-answer') return;
  const next = note.source === 'cache' && typeof note.savedAt === 'number' ? Math.min(savedAt ?? Infinity, note.savedAt) : undefined;
  if (next === savedAt) return;
  savedAt = next;
  for (const l of listeners) l();
};

/**
 * Starts taking the worker's notes. Messages that came before wait in a queue only until the page
 * has parsed (DOMContentLoaded enables the queue), so start-up's early API calls
 * (features/shell/api/early-calls.ts) call this before they go out.
 */
export const listenForAnswerNotes = (): void => {
  if (!listening && 'serviceWorker' in navigator) {
    listening = true;
    navigator.serviceWorker.addEventListener('message', onMessage);
    navigator.serviceWorker.startMessages();
  }
};

const subscribeSaved = (notify: () => void) => {
  listenForAnswerNotes();
  listeners.add(notify);
  return () => listeners.delete(notify);
};

/** When the oldest saved answer on screen was saved (epoch ms), or undefined when all came from the network. */
export const useSavedAnswersAt = (): number | undefined => useSyncExternalStore(subscribeSaved, () => savedAt, () => undefined);
