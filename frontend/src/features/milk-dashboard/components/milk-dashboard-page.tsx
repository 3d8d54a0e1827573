import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useOutletContext } from 'react-router-dom';
import { isDairyCompanyFarm, type Farm } from '@shared/entities/farm';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { dashboardLastQuery } from '../../../lib/queries/dashboard-last';
import { AutoTile } from './auto-tile';
import { StorageDataCard } from './storage-data-card';
import { VatCard } from './vat-card';
import './milk-dashboard.css';

// chart.js and its React wrapper are most of this screen's weight: the cards come first.
const loadCharts = () => import('./vat-charts-section');
const VatChartsSection = lazy(() => loadCharts().then((m) => ({ default: m.VatChartsSection })));

/** What this screen reads from the farm tabs' outlet context (the shell's contract, not its code). */
export interface MilkDashboardContext {
  readonly farm: Pick<Farm, '_id' | 'package' | 'timezone' | 'fonterra_id'> | undefined;
}

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
  const { farm } = useOutletContext<MilkDashboardContext>();
  const client = useApiClient();
  const now = useNow();
  const { data, isPending, isError } = useQuery({ ...dashboardLastQuery(client, farm?._id ?? ''), enabled: farm !== undefined });
  const dairyCompany = isDairyCompanyFarm(farm?.fonterra_id ?? '');
  // The charts' code downloads while the cards load; the charts show once the cards have.
  useEffect(() => {
    void loadCharts();
  }, []);

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
      {farm && isPending && <p className="page__note">Loading your vats…</p>}
      {isError && !data && <p className="page__note">Your vats could not be loaded. It will try again shortly.</p>}
      {data && data.length === 0 && <p className="page__note">This farm has no vats yet.</p>}
      {data && data.length > 0 && (
        <div className="card-grid milk-dashboard__cards">
          {data.map((vat) => (
            <VatCard key={vat.device._id} vat={vat} now={now} dairyCompany={dairyCompany} timeZone={farm?.timezone} />
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
        <Suspense fallback={<p className="page__note">Loading charts…</p>}>
          <VatChartsSection key={farm._id} farm={farm} />
        </Suspense>
      )}
    </section>
  );
}
