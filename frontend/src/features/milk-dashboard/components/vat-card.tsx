import { memo, useEffect, useRef } from 'react';
import { displayTemperature, displayVolume } from '@shared/telemetry/reading';
import type { VatLast } from '../../../lib/queries/dashboard-last';
import { formatClock, formatWhen } from '../../../lib/time-format';
import { capacityLine } from '../utils/capacity-line';
import { qualityGauge } from '../utils/quality-gauge';
import { agitatorLabel, coolingLines, LEVEL_SCALE_MM, levelGraphic, relativeTime, staleSince, temperatureBand, volumePercent } from '../utils/vat-card';
import { NoDataSince } from './no-data-since';

const present = (n: number | null | undefined): n is number => n !== null && n !== undefined && Number.isFinite(n);

function LastTime({ label, at, now, timeZone }: { readonly label: string; readonly at: string | undefined; readonly now: number; readonly timeZone: string | undefined }) {
  const text = at === undefined ? undefined : relativeTime(at, now);
  return (
    <div className="vat-card__fact">
      <dt>{label}</dt>
      <dd>{text && at ? <time dateTime={at} title={formatWhen(at, timeZone)}>{text}</time> : '—'}</dd>
    </div>
  );
}

/** §2.5 quality indicator for dairy-company farms: the colony estimate on its 3 to 6.2 gauge. */
function QualityIndicator({ quality }: { readonly quality: unknown }) {
  const gauge = qualityGauge(quality);
  return (
    <div className={gauge.value === null ? 'quality-gauge quality-gauge--none' : 'quality-gauge'}>
      <span className="quality-gauge__label">Milk quality</span>
      <div
        className="quality-gauge__track"
        role="meter"
        aria-label="Milk quality"
        aria-valuemin={3}
        aria-valuemax={6.2}
        // A meter needs a value: without a reading it sits at the minimum and its text says so.
        aria-valuenow={gauge.value ?? 3}
        aria-valuetext={gauge.value === null ? gauge.label : `${gauge.label} (${gauge.value.toFixed(2)})`}
      >
        <span className="quality-gauge__needle" style={{ left: `${gauge.percent}%` }} />
      </div>
      <span className={`quality-gauge__risk quality-gauge__risk--${gauge.risk.toLowerCase()}`}>{gauge.label}</span>
    </div>
  );
}

/**
 * The cooling compliance clock: while the last milking's milk cools, each §9 deadline
 * as a countdown and the predicted time from the cooling curve, in the farm's clock.
 */
function CoolingClock({ cooling, now, timeZone, quiet }: { readonly cooling: NonNullable<VatLast['cooling']>; readonly now: number; readonly timeZone: string | undefined; readonly quiet: boolean }) {
  const lines = coolingLines(cooling.targets, cooling.fit !== null, now, (at) => formatClock(at, timeZone), quiet);
  return (
    <section className="vat-cooling" aria-label="Cooling">
      <h3 className="vat-cooling__title">Cooling</h3>
      <ul className="vat-cooling__list">
        {lines.map((l) => (
          <li key={l.rule} className={l.risk ? 'vat-cooling__item vat-cooling__item--risk' : 'vat-cooling__item'} data-risk={l.risk || undefined}>
            <span className="vat-cooling__deadline">{l.deadline}</span>
            {l.prediction && <span className="vat-cooling__prediction">{l.prediction}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One vat on the milk dashboard (farmer §2.5): volume, level graphic, temperature, agitator and the last activities. */
interface VatCardProps {
  readonly vat: VatLast;
  readonly now: number;
  readonly dairyCompany: boolean;
  /** The farm's zone: a last activity's exact time (on hover) reads the farm's clock (§9). */
  readonly timeZone: string | undefined;
  /** The vat a link named (a push's `vat`): the card is scrolled to, focused and marked. */
  readonly selected?: boolean;
}

/** Memoized: the dashboard's renders that change nothing of a card's (a query's status) skip it. */
export const VatCard = memo(function VatCard({ vat, now, dairyCompany, timeZone, selected = false }: VatCardProps) {
  const { device, last } = vat;
  const cardRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!selected) return;
    // jsdom has no scrollIntoView; a browser brings the card on screen, and focus tells a screen reader.
    cardRef.current?.scrollIntoView?.({ block: 'start' });
    cardRef.current?.focus({ preventScroll: true });
  }, [selected]);
  const title = `Vat ${device.vat_number}`;
  const volume = present(last?.milk_volume) ? last.milk_volume : undefined;
  const percent = volume === undefined ? undefined : volumePercent(volume, device.vat_size);
  const level = levelGraphic(last?.milk_level);
  const levelMm = present(last?.milk_level) ? Math.round(last.milk_level) : undefined;
  const temperature = present(last?.temp1) ? last.temp1 : undefined;
  const agitator = agitatorLabel(last?.agitator_status);
  const headingId = `vat-card-${device._id}`;
  // Stale data is loud: a vat quiet for 15 minutes is amber, never a calm, healthy card.
  const stale = staleSince(last?.published_at, now);
  // A quiet vat's forecasts were made from readings that stopped: its capacity line is not shown.
  const forecast = stale ? undefined : capacityLine(vat.capacity, now, timeZone);

  return (
    <section
      ref={cardRef}
      className={`card vat-card${stale ? ' vat-card--stale' : ''}${selected ? ' vat-card--selected' : ''}`}
      aria-labelledby={headingId}
      aria-current={selected ? 'true' : undefined}
      tabIndex={selected ? -1 : undefined}
      data-stale={stale ? 'true' : undefined}
    >
      <h2 className="card__title vat-card__title" id={headingId}>
        {title}
      </h2>
      {stale && <NoDataSince at={stale.at} now={now} timeZone={timeZone} />}
      <div className="vat-card__body">
        <div
          className="vat-level"
          role="meter"
          aria-label="Milk level"
          aria-valuemin={0}
          aria-valuemax={LEVEL_SCALE_MM}
          aria-valuenow={levelMm === undefined ? 0 : Math.min(levelMm, LEVEL_SCALE_MM)}
          aria-valuetext={levelMm === undefined ? 'No level' : `${levelMm} mm${level?.overScale ? `, over the ${LEVEL_SCALE_MM} mm scale` : ''}`}
          title={`Milk level on a ${LEVEL_SCALE_MM} mm scale`}
        >
          {level && <div className={`vat-level__fill vat-level__fill--${level.band}`} data-band={level.band} style={{ height: `${level.fillPercent}%` }} />}
          <span className="vat-level__scale" aria-hidden="true">
            {level?.overScale ? `> ${LEVEL_SCALE_MM}` : LEVEL_SCALE_MM}
          </span>
        </div>
        <dl className="vat-card__facts">
          <div className="vat-card__fact vat-card__fact--volume">
            <dt>Volume</dt>
            <dd>
              {volume === undefined ? '—' : `${displayVolume(volume).toLocaleString('en')} L`}
              {percent !== undefined && <span className="vat-card__percent"> ({percent}%)</span>}
            </dd>
          </div>
          <div className="vat-card__fact">
            <dt>Temperature</dt>
            <dd>
              {temperature === undefined ? (
                '—'
              ) : (
                <span className={`vat-temp vat-temp--${temperatureBand(temperature)}`} data-band={temperatureBand(temperature)}>
                  {displayTemperature(temperature).toFixed(1)} °C
                </span>
              )}
            </dd>
          </div>
          <div className="vat-card__fact">
            <dt>Agitator</dt>
            <dd>{agitator ?? 'Unknown'}</dd>
          </div>
          <LastTime label="Last Collection" at={vat.lastCollection?.activity.start.published_at} now={now} timeZone={timeZone} />
          <LastTime label="Last Milking Start" at={vat.lastMilking?.activity.start.published_at} now={now} timeZone={timeZone} />
          <LastTime label="Last CIP" at={vat.lastCIP?.activity.start.published_at} now={now} timeZone={timeZone} />
        </dl>
      </div>
      {vat.cooling && <CoolingClock cooling={vat.cooling} now={now} timeZone={timeZone} quiet={stale !== undefined} />}
      {forecast && (
        <p className={vat.capacity?.fullBeforePickup ? 'vat-card__forecast vat-card__forecast--warn' : 'vat-card__forecast'} data-testid="capacity-forecast">
          {forecast}
        </p>
      )}
      {dairyCompany && <QualityIndicator quality={last?.quality} />}
    </section>
  );
});
