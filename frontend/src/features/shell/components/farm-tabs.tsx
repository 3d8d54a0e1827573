import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useOutletContext } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { notificationStatusQuery } from '../api/notification-status';
import type { FarmerShellContext } from './farmer-shell';

const TABS = [
  { label: 'Dashboard', to: paths.milkDashboard.to() },
  { label: 'Milking', to: paths.milking.to() },
  { label: 'Compliance', to: paths.compliance.to() },
  { label: 'Equipment', to: paths.equipment.to() },
  { label: 'Notifications', to: paths.notifications.to() },
  { label: 'Settings', to: paths.alertSettings.to() },
] as const;

/**
 * The farm tab bar (farmer §2.2). `notificationsMarked` shows the marker on Notifications when
 * the farmer notification status is YES (FARMER_NOTIFICATION_STATUS).
 */
export function FarmTabs({ notificationsMarked = false }: { readonly notificationsMarked?: boolean }) {
  // On a phone the bar is wider than the screen and scrolls: keep the open tab in view.
  const bar = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    // Measured in the next frame, not while React commits: reading sizes forces a layout, which
    // then made the first render's task longer (Lighthouse's forced reflow).
    const frame = requestAnimationFrame(() => {
      const active = bar.current?.querySelector<HTMLElement>('.farm-tabs__tab.active');
      if (active && bar.current && typeof bar.current.scrollTo === 'function') {
        bar.current.scrollTo({ left: Math.max(0, active.offsetLeft - (bar.current.clientWidth - active.offsetWidth) / 2) });
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return (
    <nav ref={bar} className="farm-tabs" aria-label="Farm sections">
      {TABS.map((tab) => (
        <NavLink key={tab.to} className="farm-tabs__tab" to={tab.to}>
          {tab.label}
          {tab.to === paths.notifications.to() && notificationsMarked && (
            <span className="farm-tabs__marker">
              <span className="visually-hidden">{' (new)'}</span>
            </span>
          )}
        </NavLink>
      ))}
    </nav>
  );
}

/** Layout route of the milk pages: the tab bar above them, the shell's context passed through. */
export function FarmTabsLayout() {
  const context = useOutletContext<FarmerShellContext>();
  const client = useApiClient();
  const farmId = context.farm?._id;
  const status = useQuery({ ...notificationStatusQuery(client, farmId ?? ''), enabled: farmId !== undefined });
  return (
    <>
      <FarmTabs notificationsMarked={status.data === 'YES'} />
      <Outlet context={context} />
    </>
  );
}
