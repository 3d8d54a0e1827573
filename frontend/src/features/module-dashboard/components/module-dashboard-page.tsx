import { useQuery } from '@tanstack/react-query';
import { useOutletContext } from 'react-router-dom';
import type { Farm } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';
import { useApiClient } from '../../../lib/api-client-provider';
import { useWebConfig } from '../../../lib/use-web-config';
import { farmerDashboardQuery } from '../api/farmer-dashboard';
import { EffluentCard, EnquiryCard, HerdCard, LandCard, LiveMonitoringCard, WaterCard, WeatherCard } from './module-cards';
import { PromotionBanners } from './promotion-banners';
import './module-dashboard.css';

/**
 * What this screen reads from the farmer shell's outlet context. Declared here rather than
 * imported, so the feature depends only on the shell's contract, not on its code.
 */
interface ModuleDashboardContext {
  readonly user: Pick<User, 'firstName'>;
  /** Absent only for a herd user without a farm, whom farmer §6 keeps here: greeting and herd card only. */
  readonly farm: Pick<Farm, '_id' | 'package'> | undefined;
  readonly herdUrl: string | undefined;
}

/** /dashboard (farmer §2.4): greeting, herd card, and a card per module switched on for the farm. */
export function ModuleDashboardPage() {
  const { user, farm, herdUrl } = useOutletContext<ModuleDashboardContext>();
  const client = useApiClient();
  const liveMonitoringUrl = useWebConfig()?.liveMonitoringUrl;
  const { data } = useQuery({ ...farmerDashboardQuery(client, farm?._id ?? ''), enabled: farm !== undefined });
  // Only the answer for the farm now selected decides the cards.
  const modules = data && farm && data.farm._id === farm._id ? data : undefined;
  const flags = modules?.farm.knode;
  const assets = modules?.knode ?? [];

  return (
    <section className="modules">
      <h1 className="page__title">Welcome, {user.firstName}</h1>
      {farm && <PromotionBanners farmPackage={farm.package} />}
      <div className="modules__grid">
        {herdUrl && <HerdCard href={herdUrl} />}
        {liveMonitoringUrl && <LiveMonitoringCard href={liveMonitoringUrl} />}
        {flags?.is_water_enabled && <WaterCard assets={assets} />}
        {flags?.is_effluent_enabled && <EffluentCard assets={assets} />}
        {flags?.is_land_enabled && <LandCard assets={assets} />}
        {flags?.is_weather_enabled && <WeatherCard assets={assets} />}
        {farm && <EnquiryCard />}
      </div>
    </section>
  );
}
