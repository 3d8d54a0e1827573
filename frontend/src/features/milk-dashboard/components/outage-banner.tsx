import { useState } from 'react';

const closedKey = (farmId: string) => `vatman-outage-closed:${farmId}`;

const readClosed = (farmId: string): string | null => {
  try {
    return localStorage.getItem(closedKey(farmId));
  } catch {
    return null;
  }
};

/**
 * farmer §2.5 'An outage banner exists but is permanently closed': the farm-offline banner (every
 * vat quiet for 15 minutes) can be closed, and a closed one stays closed for good for that outage,
 * over reloads. An outage is known by its farm's newest reading: when readings come back and stop
 * again, that is another outage and the banner shows again, since a missed outage is the worst
 * thing this page could do.
 */
export function OutageBanner({ farmId, outageSince, children }: { readonly farmId: string; readonly outageSince: string; readonly children: React.ReactNode }) {
  const [closedFor, setClosedFor] = useState(() => readClosed(farmId));
  if (closedFor === outageSince) return null;
  const close = () => {
    try {
      localStorage.setItem(closedKey(farmId), outageSince);
    } catch {
      // Storage refused (a private window): closed for this page's life only.
    }
    setClosedFor(outageSince);
  };
  return (
    <div className="farm-offline-banner outage-banner" role="alert" aria-label="Outage">
      <p className="outage-banner__text">
        <strong>Outage.</strong> {children}
      </p>
      <button type="button" className="button button--text" onClick={close}>
        Close
      </button>
    </div>
  );
}
