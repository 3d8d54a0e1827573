import { paths } from '../../../config/paths';
import { Link } from 'react-router-dom';
import { useId, type ReactNode } from 'react';
import type { KnodeAsset } from '@shared/entities/farm';
import { compassPoint } from '../utils/compass';
import { levelBar } from '../utils/level-bar';

const numberFormat = new Intl.NumberFormat('en-NZ', { maximumFractionDigits: 1 });

/** A reading with its unit, or a dash when the asset has not reported it. */
export const reading = (value: number | null | undefined, unit?: string): string =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : `${numberFormat.format(value)}${unit ? ` ${unit}` : ''}`;

function WarningIcon() {
  return (
    <svg className="module-card__alarm" viewBox="0 0 24 24" width="24" height="24" role="img" aria-label="Alarm active">
      <path d="M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z" fill="currentColor" />
    </svg>
  );
}

/** A module card (farmer §2.4): a titled group of asset tiles. */
function ModuleCard({ title, alarm = false, children }: { readonly title: string; readonly alarm?: boolean; readonly children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="module-card" aria-labelledby={titleId}>
      <header className="module-card__header">
        <h2 id={titleId} className="module-card__title">
          {title}
        </h2>
        {alarm && <WarningIcon />}
      </header>
      {children}
    </section>
  );
}

/** One asset: a link to its own page when it has a url. */
function AssetTile({ asset, children }: { readonly asset: KnodeAsset; readonly children: ReactNode }) {
  const body = (
    <>
      <h3 className="asset-tile__name">{asset.asset_name}</h3>
      {children}
    </>
  );
  const className = `asset-tile${asset.alarm_active ? ' asset-tile--alarm' : ''}`;
  return asset.url ? (
    <a className={className} href={asset.url} target="_blank" rel="noopener noreferrer">
      {body}
    </a>
  ) : (
    <div className={className}>{body}</div>
  );
}

interface TilesProps {
  readonly assets: readonly KnodeAsset[];
  readonly empty: string;
  readonly render: (asset: KnodeAsset) => ReactNode;
  /** Tiles holding a list of readings need a wider column than a single value. */
  readonly wide?: boolean;
}

function Tiles({ assets, empty, render, wide = false }: TilesProps) {
  if (assets.length === 0) return <p className="module-card__empty">{empty}</p>;
  return (
    <ul className={`module-card__tiles${wide ? ' module-card__tiles--wide' : ''}`}>
      {assets.map((asset, index) => (
        <li key={`${asset.asset_name}-${index}`}>
          <AssetTile asset={asset}>{render(asset)}</AssetTile>
        </li>
      ))}
    </ul>
  );
}

function Readings({ rows }: { readonly rows: readonly (readonly [string, string])[] }) {
  return (
    <dl className="asset-tile__readings">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LevelBar({ name, value }: { readonly name: string; readonly value: number | null | undefined }) {
  const bar = levelBar(value);
  if (!bar) return null;
  return (
    <div className="level-bar" role="progressbar" aria-label={`${name} level`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={bar.percent}>
      <div className="level-bar__fill" data-testid="level-fill" style={{ height: `${bar.height}%` }} />
    </div>
  );
}

export function WaterCard({ assets }: { readonly assets: readonly KnodeAsset[] }) {
  const tanks = assets.filter((asset) => asset.type === 'Tank');
  return (
    <ModuleCard title="Water" alarm={tanks.some((tank) => tank.alarm_active === true)}>
      <Tiles
        assets={tanks}
        empty="No water assets are reporting yet."
        render={(tank) => (
          <div className="asset-tile__tank">
            <LevelBar name={tank.asset_name} value={tank.metric_value_1} />
            <p className="asset-tile__value">{reading(tank.metric_value_1, tank.unit_1)}</p>
          </div>
        )}
      />
    </ModuleCard>
  );
}

const EFFLUENT_TYPES: readonly string[] = ['TravellingIrrigator', 'PumpEffluentSurface'];

/** An effluent asset's state: a stopped irrigator reads 'Stationary', a stopped pump 'Off' (farmer §2.4). */
export const effluentState = (asset: KnodeAsset): string => {
  if (asset.metric_value_1 === 0 && asset.type === 'TravellingIrrigator') return 'Stationary';
  if (asset.metric_value_1 === 0 && asset.type === 'PumpEffluentSurface') return 'Off';
  return reading(asset.metric_value_1, asset.unit_1);
};

export function EffluentCard({ assets }: { readonly assets: readonly KnodeAsset[] }) {
  const effluent = assets.filter((asset) => EFFLUENT_TYPES.includes(asset.type));
  return (
    <ModuleCard title="Effluent" alarm={effluent.some((asset) => asset.alarm_active === true)}>
      <Tiles assets={effluent} empty="No effluent assets are reporting yet." render={(asset) => <p className="asset-tile__value">{effluentState(asset)}</p>} />
    </ModuleCard>
  );
}

export function LandCard({ assets }: { readonly assets: readonly KnodeAsset[] }) {
  const probes = assets.filter((asset) => asset.type === 'SoilProbe');
  return (
    <ModuleCard title="Land" alarm={probes.some((asset) => asset.alarm_active === true)}>
      <Tiles
        assets={probes}
        wide
        empty="No soil probes are reporting yet."
        render={(probe) => (
          <Readings
            rows={[
              ['Soil temperature at 10cm', reading(probe.metric_value_1, '°C')],
              ['Soil moisture at 10cm', reading(probe.metric_value_2, '%')],
            ]}
          />
        )}
      />
    </ModuleCard>
  );
}

export function WeatherCard({ assets }: { readonly assets: readonly KnodeAsset[] }) {
  const stations = assets.filter((asset) => asset.type === 'WeatherStation');
  return (
    <ModuleCard title="Weather" alarm={stations.some((asset) => asset.alarm_active === true)}>
      <Tiles
        assets={stations}
        wide
        empty="No weather stations are reporting yet."
        render={(station) => (
          <Readings
            rows={[
              ['Rainfall today', reading(station.metric_value_1, 'mm')],
              ['Temperature', reading(station.metric_value_2, '°C')],
              ['Humidity', reading(station.metric_value_3, '%')],
              ['Wind speed', reading(station.metric_value_4, 'km/h')],
              ['Wind direction', (station.metric_value_5 !== null && station.metric_value_5 !== undefined && compassPoint(station.metric_value_5)) || '–'],
              ['Solar radiation', reading(station.metric_value_6, 'W/m²')],
            ]}
          />
        )}
      />
    </ModuleCard>
  );
}

export function HerdCard({ href }: { readonly href: string }) {
  return (
    <section className="module-card module-card--herd" aria-label="Herd">
      <a className="herd-link" href={href} target="_blank" rel="noopener noreferrer">
        <span className="module-card__title">Herd</span>
        <span className="herd-link__text">Open your herd records on the herd-management site</span>
      </a>
    </section>
  );
}

/** The sibling live-monitoring site on another sub-domain (farmer §1), when the config names it. */
export function LiveMonitoringCard({ href }: { readonly href: string }) {
  return (
    <section className="module-card module-card--herd" aria-label="Live monitoring">
      <a className="herd-link" href={href} target="_blank" rel="noopener noreferrer">
        <span className="module-card__title">Live monitoring</span>
        <span className="herd-link__text">Open the live-monitoring site</span>
      </a>
    </section>
  );
}

/**
 * The way to the Enquiry page (farmer §1: farmers register interest in other monitoring
 * solutions; §2.16). Shown on the module dashboard, where the modules a farm lacks are missing.
 */
export function EnquiryCard() {
  return (
    <section className="module-card module-card--herd" aria-label="Other monitoring solutions">
      <Link className="herd-link" to={paths.survey.to()}>
        <span className="module-card__title">Interested in other monitoring solutions?</span>
        <span className="herd-link__text">Water, effluent, soil, weather, grain silos, asset tracking and dairy automation: tell us which</span>
      </Link>
    </section>
  );
}
