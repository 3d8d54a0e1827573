import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { INSTALL_LOG_PAGE, LOG_TYPES, type InstallLogEntry, type LogType } from '@shared/entities/install';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatWhen } from '../../../lib/time-format';
import { installLogQuery, type LogFilter } from '../api/installer';
import './installer.css';

/** Installers work in New Zealand: the log's times are shown in its zone. */
const ZONE = 'Pacific/Auckland';

/** The §3 fields of an entry, in the order the spec lists them; absent ones are not shown. */
const FIELDS: readonly (readonly [keyof InstallLogEntry, string])[] = [
  ['created_at', 'Created'],
  ['updated_at', 'Updated'],
  ['supply_number', 'Supply number'],
  ['installer_name', 'Installer'],
  ['imei', 'IMEI'],
  ['result', 'Result'],
  ['numVats', 'Vats'],
  ['particle_id', 'Particle'],
  ['type', 'Type'],
  ['network', 'Network'],
  ['signalStrength', 'Signal strength'],
  ['signalQuality', 'Signal quality'],
  ['disconnects', 'Disconnects'],
  ['power', 'Power'],
  ['batteryCharge', 'Battery charge'],
  ['batteryState', 'Battery state'],
  ['checkSensorBoards', 'Sensor boards'],
];

const valueText = (key: keyof InstallLogEntry, value: unknown): string => (key === 'created_at' || key === 'updated_at' ? formatWhen(String(value), ZONE) : String(value));

function Entry({ entry }: { readonly entry: InstallLogEntry }) {
  return (
    <li className="installer-log__entry">
      <details>
        <summary>
          {formatWhen(entry.created_at, ZONE)} · {entry.supply_number} · {entry.type ?? 'New Install'} · {entry.result}
        </summary>
        <dl className="installer-log__fields">
          {FIELDS.filter(([key]) => entry[key] !== undefined && entry[key] !== '').map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{valueText(key, entry[key])}</dd>
            </div>
          ))}
        </dl>
      </details>
    </li>
  );
}

/** /dts/installer/log (operator §2): filter by supply number and log type; expandable entries, pages of 50. */
export function InstallLogPage() {
  const client = useApiClient();
  // ?logType= (the fleet overview's link) opens the log on that type.
  const [params] = useSearchParams();
  const linked = LOG_TYPES.find((t) => t === params.get('logType')) ?? 'All';
  const [supplyNumber, setSupplyNumber] = useState('');
  const [logType, setLogType] = useState<LogType>(linked);
  const [filter, setFilter] = useState<LogFilter>({ supplyNumber: '', logType: linked, page: 0 });
  useEffect(() => {
    setLogType(linked);
    setFilter((f) => (f.logType === linked ? f : { ...f, logType: linked, page: 0 }));
  }, [linked]);
  const query = useQuery(installLogQuery(client, filter));
  const count = query.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / INSTALL_LOG_PAGE));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter({ supplyNumber: supplyNumber.trim().toUpperCase(), logType, page: 0 });
  };

  return (
    <section className="page installer">
      <h1 className="page__title">Install Log</h1>
      <form className="installer__form" onSubmit={apply} aria-label="Install log filter">
        <label className="installer__field">
          Supply Number
          <input type="text" value={supplyNumber} placeholder="All farms" onChange={(e) => setSupplyNumber(e.target.value)} />
        </label>
        <label className="installer__field">
          Log Type
          <select value={logType} onChange={(e) => setLogType(e.target.value as LogType)}>
            {LOG_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--primary">
          Search
        </button>
      </form>
      {query.isPending && <p className="page__note">Loading…</p>}
      {query.data && (
        <>
          <p className="page__note">
            {count === 0 ? 'No entries.' : `${count} ${count === 1 ? 'entry' : 'entries'}, page ${filter.page + 1} of ${pages}`}
          </p>
          <ul className="installer-log" aria-label="Install log entries">
            {query.data.installs.map((e) => (
              <Entry key={e._id} entry={e} />
            ))}
          </ul>
          {pages > 1 && (
            <nav className="installer__pager" aria-label="Install log pages">
              <button type="button" className="button" disabled={filter.page === 0} onClick={() => setFilter((f) => ({ ...f, page: f.page - 1 }))}>
                Newer
              </button>
              <button type="button" className="button" disabled={filter.page + 1 >= pages} onClick={() => setFilter((f) => ({ ...f, page: f.page + 1 }))}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
