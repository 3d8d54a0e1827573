import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LiveReading } from '@shared/live/protocol';
import { localDayOf } from '@shared/time/local-day';
import { getAccessToken } from '../../../lib/auth-session';
import { useWebConfig } from '../../../lib/use-web-config';
import { dashboardLastQueryKey, type VatLast } from '../../../lib/queries/dashboard-last';
import { dashboardLastAllFarmKey, isLiveRange, type ChartRange } from '../api/dashboard-last-all';
import { applyLiveReading } from './apply-reading';
import { openLiveSocket, type LiveState } from './live-socket';

/** Readings arriving together (a unit's vats) are taken in one range refresh. */
const COALESCE_MS = 300;

/**
 * Live updates for a farm's dashboard (decision 077): each reading the socket pushes is applied to
 * the vat cards' cached answer (FARMER_DASHBOARD_LAST) at once, with no call; the charts' live range
 * asks only for what is newer than the points it has (its `since` merge), since its state runs,
 * stops and outages are worked out by the server from the readings around the new one. Without a
 * live-updates URL, or while the socket is down, the 120 s refresh is all there is.
 */
export const useLiveUpdates = (farm: string | undefined, timeZone: string | undefined): LiveState => {
  const config = useWebConfig();
  const queries = useQueryClient();
  const [state, setState] = useState<LiveState>('down');
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const url = config?.liveUrl;

  useEffect(() => {
    if (!url || !farm || !timeZone) return undefined;
    const refreshRange = () => {
      pending.current = undefined;
      // Only the range on screen, and only when it reaches now (an older one does not change).
      const today = localDayOf(Date.now(), timeZone);
      void queries.invalidateQueries({
        queryKey: dashboardLastAllFarmKey(farm),
        refetchType: 'active',
        predicate: (q) => isLiveRange(q.queryKey[2] as ChartRange, today),
      });
    };
    const close = openLiveSocket({
      url,
      farm,
      getToken: getAccessToken,
      onState: setState,
      onReading: (reading: LiveReading) => {
        if (reading.farm !== farm) return;
        queries.setQueryData<readonly VatLast[]>(dashboardLastQueryKey(farm), (answer) => applyLiveReading(answer, reading));
        pending.current ??= setTimeout(refreshRange, COALESCE_MS);
      },
    });
    return () => {
      close();
      if (pending.current) clearTimeout(pending.current);
      pending.current = undefined;
    };
  }, [url, farm, timeZone, queries]);
  return url && farm ? state : 'down';
};
