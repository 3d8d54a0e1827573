import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useOutletContext } from 'react-router-dom';
import type { FleetSummary } from '@shared/api/actions/operator-fleet';
import { NOTIFICATION_TYPES, isNotificationType } from '@shared/alerts/types';
import type { User } from '@shared/entities/user';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { formatWhen } from '../../../lib/time-format';
import { fleetSummaryQuery } from '../api/fleet';
import './fleet.css';

/** The fleet's clock (the farms are in New Zealand): the overview's own times are shown in it. */
const FLEET_ZONE = 'Pacific/Auckland';

const devicesWhere = (search: string) => `${paths.devices.to()}?search=${encodeURIComponent(search)}`;
const typeName = (type: number) => (isNotificationType(type) ? NOTIFICATION_TYPES[type] : `Type ${type}`);

const ageText = (ms: number | null): string => {
  if (ms === null) return 'not known';
  if (ms < 1_000) return 'under a second';
  if (ms < 120_000) return `${Math.round(ms / 1_000)} s`;
  if (ms < 2 * 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
};

function Figure({ label, value, to, children }: { readonly label: string; readonly value: ReactNode; readonly to?: string; readonly children?: ReactNode }) {
  return (
    <div className="fleet__figure">
      <dt className="fleet__label">{label}</dt>
      <dd className="fleet__value">{to ? <Link to={to}>{value}</Link> : value}</dd>
      {children}
    </div>
  );
}

function Units({ units }: { readonly units: FleetSummary['units'] }) {
  return (
    <section className="fleet__card" aria-labelledby="fleet-units">
      <h2 id="fleet-units">Units</h2>
      <dl className="fleet__figures">
        <Figure label="Reporting now" value={units.reporting} to={paths.devices.to()} />
        <Figure label="Silent over a day" value={units.silent} to={devicesWhere('down')} />
      </dl>
      {units.oldest.length > 0 && (
        <>
          <h3>Silent longest</h3>
          <ul className="fleet__list">
            {units.oldest.map((u) => (
              <li key={u._id}>
                <Link to={paths.device.to(u._id)}>{u.name}</Link> <span className="fleet__muted">{u.fonterra_id ?? 'N/A'}</span>{' '}
                <span className="fleet__muted">{u.seen_at ? `last seen ${formatWhen(u.seen_at, u.timezone)}` : 'never reported'}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Alerts({ alerts }: { readonly alerts: FleetSummary['alerts'] }) {
  return (
    <section className="fleet__card" aria-labelledby="fleet-alerts">
      <h2 id="fleet-alerts">Alerts in the last {alerts.hours} hours</h2>
      <dl className="fleet__figures">
        <Figure label="Raised" value={alerts.total} />
      </dl>
      {alerts.by_type.length > 0 && (
        <ul className="fleet__list">
          {alerts.by_type.map((t) => (
            <li key={t.type}>
              <details>
                <summary>
                  {typeName(t.type)}: <strong>{t.count}</strong>
                </summary>
                <ul className="fleet__farms" aria-label={`Farms with ${typeName(t.type)}`}>
                  {t.farms.map((f) => (
                    <li key={f._id}>
                      <Link to={devicesWhere(f.fonterra_id)}>{f.fonterra_id}</Link>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Ingest({ ingest }: { readonly ingest: FleetSummary['ingest'] }) {
  return (
    <section className="fleet__card" aria-labelledby="fleet-ingest">
      <h2 id="fleet-ingest">Ingest health</h2>
      <dl className="fleet__figures">
        <Figure label="Iterator age" value={ageText(ingest.iterator_age_ms)} />
        <Figure label="Last batch" value={ingest.last_batch_at ? formatWhen(ingest.last_batch_at, FLEET_ZONE) : 'none in 24 hours'} />
        <Figure label="Records retried (24 h)" value={ingest.retried_24h} />
        <Figure label="Dead letters waiting" value={ingest.dead_letters} to={paths.fleetIngest.to()} />
        <Figure label="Rejected messages" value="Today's list" to={paths.fleetIngest.to()} />
      </dl>
    </section>
  );
}

/**
 * /dts/fleet: the operators' overview (Admin, Installer; the server decides): units reporting and
 * silent, open Watchman cases, the last day's alerts by type, this week's installs, the month's
 * texts against the spend alarm and the ingest's health. Each figure opens the list behind it.
 */
export function FleetPage() {
  const client = useApiClient();
  const { user } = useOutletContext<{ user: Pick<User, 'role'> }>();
  const summary = useQuery(fleetSummaryQuery(client));
  if (summary.isError) return <p role="alert">{errorTextOf(summary.error, 'The overview could not be loaded.')}</p>;
  const s = summary.data;
  if (!s) return <p aria-busy="true">Loading…</p>;
  const spend = s.sms.sent * s.sms.price_usd;
  return (
    <section className="page fleet">
      <h1>Fleet</h1>
      <p className="fleet__muted">As of {formatWhen(s.at, FLEET_ZONE)}</p>
      <div className="fleet__grid">
        <Units units={s.units} />
        <section className="fleet__card" aria-labelledby="fleet-watchman">
          <h2 id="fleet-watchman">Watchman</h2>
          <dl className="fleet__figures">
            <Figure label="Open cases" value={s.watchman.open_cases} to={paths.watchman.to()} />
            <Figure label="Last run" value={s.watchman.last_run ? formatWhen(s.watchman.last_run, FLEET_ZONE) : 'none yet'} />
          </dl>
        </section>
        <Alerts alerts={s.alerts} />
        <section className="fleet__card" aria-labelledby="fleet-installs">
          <h2 id="fleet-installs">Installs</h2>
          <dl className="fleet__figures">
            <Figure label="New installs this week" value={s.installs.count} to={`${paths.installerLog.to()}?logType=${encodeURIComponent('New Installs')}`} />
          </dl>
        </section>
        <section className="fleet__card" aria-labelledby="fleet-sms">
          <h2 id="fleet-sms">Texts this month</h2>
          <dl className="fleet__figures">
            <Figure label="Sent" value={s.sms.sent} to={user.role === 'Admin' ? paths.farms.to() : undefined} />
            <Figure label="Estimated spend" value={`$${spend.toFixed(2)} of the $${s.sms.alarm_usd} alarm`}>
              <dd className="fleet__meter">
                <meter min={0} max={s.sms.alarm_usd} high={s.sms.alarm_usd * 0.8} value={Math.min(spend, s.sms.alarm_usd)} aria-label="Spend against the alarm" />
              </dd>
            </Figure>
          </dl>
        </section>
        <Ingest ingest={s.ingest} />
      </div>
    </section>
  );
}
