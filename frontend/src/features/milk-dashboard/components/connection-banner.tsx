import { formatClock } from '../../../lib/time-format';
import { relativeTime } from '../utils/vat-card';
import type { LiveState } from '../live/live-socket';
import { useOnline, useSavedAnswersAt } from '../../../lib/connection-state';

/**
 * The page's own connection: offline, it says so and how old the numbers are (saved
 * answers from the service worker); online, whether the numbers update live or every 2 minutes.
 */
export function ConnectionBanner({ live, now, timeZone, hasLive }: { readonly live: LiveState; readonly now: number; readonly timeZone: string | undefined; readonly hasLive: boolean }) {
  const online = useOnline();
  const savedAt = useSavedAnswersAt();
  if (!online || savedAt !== undefined) {
    const age = savedAt === undefined ? undefined : `${formatClock(savedAt, timeZone)} (${relativeTime(new Date(savedAt).toISOString(), now) ?? 'now'})`;
    return (
      <p className="connection-banner connection-banner--offline" role="status">
        {online ? 'No connection to Vat-Man.' : 'You are offline.'} {age ? `Showing the numbers saved at ${age}.` : 'The numbers below may be out of date.'}
      </p>
    );
  }
  if (!hasLive) return null;
  return (
    <p className={`connection-status connection-status--${live}`} role="status" aria-live="polite">
      {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Updates every 2 minutes'}
    </p>
  );
}
