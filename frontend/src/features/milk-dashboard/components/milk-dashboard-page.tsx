import { useQuery } from '@tanstack/react-query';
import { lazy, memo, Suspense, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link, useOutletContext, useSearchParams } from 'react-router-dom';
import { isDairyCompanyFarm, type Farm } from '@shared/entities/farm';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { dashboardLastQuery } from '../../../lib/queries/dashboard-last';
import { AutoTile } from './auto-tile';
import { StorageDataCard } from './storage-data-card';
import { VatCard } from './vat-card';
import { ConnectionBanner } from './connection-banner';
import { OutageBanner } from './outage-banner';
import { noDataSinceText } from './no-data-since';
import { useLiveUpdates } from '../live/use-live-updates';
import { registerServiceWorker } from '../live/register-service-worker';
import { staleSince } from '../utils/vat-card';
import { useWebConfig } from '../../../lib/use-web-config';
import { useAfterPaint } from '../../../lib/use-after-paint';
import './milk-dashboard.css';
// The charts' styles (1 kB) come with the page, not with the charts' code: a style sheet added after
// the cards had shown made the browser restyle and lay out the whole page again in one long task.
import '../../../components/charts/charts.css';

// chart.js and its React wrapper are most of this screen's weight: the cards come first, and
// the charts' code downloads once they have been painted (downloaded beside the cards' answer,
// its 70 kB shared a phone's bandwidth with everything the cards wait for; asked for as the cards
// rendered, it could still arrive and run before their paint).
// Memoized like the cards: the page's renders for a query's status or the live state skip it.
const LOADING_CHARTS = <p className="page__note">Loading charts…</p>;
const VatChartsSection = lazy(() => import('./vat-charts-section').then((m) => ({ default: memo(m.VatChartsSection) })));

/** What this screen reads from the farm tabs' outlet context (the shell's contract, not its code). */
interface MilkDashboardContext {
  readonly farm: Pick<Farm, '_id' | 'package' | 'timezone' | 'fonterra_id'> | undefined;
  readonly farms: readonly Pick<Farm, '_id'>[];
  /** Stores another farm and reloads (farmer §2.2). */
  readonly selectFarm: (farmId: string) => void;
}

/**
 * A link to one vat (a push opens `?farm=<id>&vat=<n>`): another of the user's farms is selected
 * first (the page reloads on it, as the storage page does); on the named farm the vat's card is
 * the one marked. A farm that is not the user's is ignored: the link cannot widen what they see.
 */
const useLinkedVat = ({ farm, farms, selectFarm }: MilkDashboardContext): number | undefined => {
  const [params] = useSearchParams();
  const linkedFarm = params.get('farm') ?? undefined;
  const switchTo = linkedFarm && farm && linkedFarm !== farm._id && farms.some((f) => f._id === linkedFarm) ? linkedFarm : undefined;
  useEffect(() => {
    if (!switchTo) return;
    // After the commit's effects: the shell's own effect (a parent's runs after its children's)
    // stores the farm it shows on its first render, which would overwrite this choice before the reload.
    const timer = setTimeout(() => selectFarm(switchTo), 0);
    return () => clearTimeout(timer);
  }, [switchTo, selectFarm]);
  const vat = Number(params.get('vat'));
  return (linkedFarm === undefined || linkedFarm === farm?._id) && Number.isInteger(vat) && vat > 0 ? vat : undefined;
};

/** Relative times ('3 hours ago') move on between the 120 s refreshes. */
const CLOCK_TICK_MS = 30_000;

const useNow = () => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
};

/**
 * /dts/dashboard (farmer §2.5, tab 0 'Vatman'): a card per vat, refreshed every 120 s; Submit Pickup
 * for farms that are not dairy-company farms (§6), the 'Milk storage data' card, the Vat-Man Auto
 * tile for Auto farms, then the charts.
 */
export function MilkDashboardPage() {
  const context = useOutletContext<MilkDashboardContext>();
  const { farm } = context;
  const linkedVat = useLinkedVat(context);
  const client = useApiClient();
  const now = useNow();
  const answer = useQuery({ ...dashboardLastQuery(client, farm?._id ?? ''), enabled: farm !== undefined });
  const { isError } = answer;
  // The cards render from a deferred copy: React renders them in slices that give the
  // main thread back every few milliseconds, rather than in one long task as the answer arrives.
  const data = useDeferredValue(answer.data);
  const dairyCompany = isDairyCompanyFarm(farm?.fonterra_id ?? '');
  const live = useLiveUpdates(farm?._id, farm?.timezone);
  useEffect(registerServiceWorker, []);
  const hasLive = useWebConfig()?.liveUrl !== undefined;
  const cardsPainted = useAfterPaint(data !== undefined || isError);
  // A whole farm gone quiet: every vat without a reading for 15 minutes.
  // Made once per answer and clock tick, so the memoized cards and charts keep their props.
  const { farmOffline, quietVats, newestOfFarm } = useMemo(() => {
    const quiet = data?.map((vat) => staleSince(vat.last?.published_at, now));
    return {
      farmOffline: quiet !== undefined && quiet.length > 0 && quiet.every((q) => q !== undefined),
      quietVats: new Map((data ?? []).flatMap((vat, i) => (quiet?.[i] ? [[vat.device._id, quiet[i]] as const] : []))),
      newestOfFarm: data?.map((vat) => vat.last?.published_at).filter((at): at is string => at !== undefined).sort().at(-1),
    };
  }, [data, now]);

  return (
    <section className="page milk-dashboard">
      <div className="dashboard-tiles__heading">
        <h1 className="page__title">Vatman</h1>
        {farm && !dairyCompany && (
          <Link className="button button--primary" to={paths.pickup.to()}>
            Submit Pickup
          </Link>
        )}
      </div>
      <ConnectionBanner live={live} now={now} timeZone={farm?.timezone} hasLive={hasLive} />
      {farmOffline && farm && (
        <OutageBanner key={farm._id} farmId={farm._id} outageSince={newestOfFarm ?? 'never'}>
          This farm is offline: {noDataSinceText(newestOfFarm, now, farm.timezone).replace(/^No data/, 'no vat has sent data')}. Check the power and the unit's signal.
        </OutageBanner>
      )}
      {farm && !data && !isError && <p className="page__note">Loading your vats…</p>}
      {isError && !data && <p className="page__note">Your vats could not be loaded. It will try again shortly.</p>}
      {data && data.length === 0 && <p className="page__note">This farm has no vats yet.</p>}
      {data && data.length > 0 && (
        <div className="card-grid milk-dashboard__cards">
          {data.map((vat) => (
            <VatCard key={vat.device._id} vat={vat} now={now} dairyCompany={dairyCompany} timeZone={farm?.timezone} selected={vat.device.vat_number === linkedVat} />
          ))}
        </div>
      )}
      {farm && data && data.length > 0 && (
        <div className="card-grid">
          <StorageDataCard vats={data} now={now} />
          {farm.package === 'Vat-Man Auto' && <AutoTile farmId={farm._id} vats={data} timeZone={farm.timezone} />}
        </div>
      )}
      {/* After the cards: charts that came first would be pushed down as the cards arrive (a layout shift). */}
      {farm && (data || isError) && (
        cardsPainted ? (
          <Suspense fallback={LOADING_CHARTS}>
            <VatChartsSection key={farm._id} farm={farm} quiet={quietVats} now={now} />
          </Suspense>
        ) : (
          LOADING_CHARTS
        )
      )}
    </section>
  );
}
