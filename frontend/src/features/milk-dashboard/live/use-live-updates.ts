import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LiveReading } from '@shared/live/protocol';
import { localDayOf } from '@shared/time/local-day';
import { getAccessToken } from '../../../lib/auth-session';
import { useWebConfig } from '../../../lib/use-web-config';
import { isLiveRange, type ChartRange } from '../api/dashboard-last-all';
import { openLiveSocket, type LiveState } from './live-socket';

/** Readings arriving together (a unit's vats) are taken in one refresh. */
const COALESCE_MS = 300;

/**
 * Live updates for a farm's dashboard (issue 26): on each reading the socket pushes, the vat cards'
 * answer (FARMER_DASHBOARD_LAST) is fetched again and the charts' live range asks only for what is
 * newer than the points it has (its `since` merge), so the charts append points. Without a
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
    const refresh = () => {
      pending.current = undefined;
      void queries.invalidateQueries({ queryKey: ['farmer-dashboard-last', farm] });
      // Only the range on screen, and only when it reaches now (an older one does not change).
      const today = localDayOf(Date.now(), timeZone);
      void queries.invalidateQueries({
        queryKey: ['farmer-dashboard-last-all', farm],
        refetchType: 'active',
        predicate: (q) => isLiveRange(q.queryKey[2] as ChartRange, today),
      });
    };
    const close = openLiveSocket({
      url,
      farm,
      getToken: getAccessToken,
      onState: setState,
      onReading: (_reading: LiveReading) => {
        pending.current ??= setTimeout(refresh, COALESCE_MS);
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
