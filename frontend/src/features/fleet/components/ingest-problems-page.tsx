import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { REJECTED_DAYS_KEPT } from '@shared/api/actions/operator-fleet';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { formatWhen } from '../../../lib/time-format';
import { ingestProblemsQuery } from '../api/fleet';
import './fleet.css';

/** The fleet's clock (the farms are in New Zealand), as on the overview. */
const FLEET_ZONE = 'Pacific/Auckland';
/** Rejected messages are kept per UTC day (the ingest's partitions). */
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
const daysBefore = (day: string, n: number) => utcDay(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000);

/**
 * /dts/fleet/ingest: what is behind the overview's ingest health (Admin, Installer; the server
 * decides): the dead letters waiting for a re-drive, and a UTC day's rejected messages (why each
 * was refused, its topic and the start of its payload), a page at a time.
 */
export function IngestProblemsPage() {
  const client = useApiClient();
  const today = utcDay(Date.now());
  const [day, setDay] = useState(today);
  /** The cursors of the pages before this one; the last is this page's. */
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const after = cursors.at(-1);
  const problems = useQuery({ ...ingestProblemsQuery(client, day, after), placeholderData: keepPreviousData });
  const data = problems.data;

  return (
    <section className="page fleet">
      <h1 className="page__title">Ingest problems</h1>
      <p>
        <Link to={paths.fleet.to()}>Back to the fleet overview</Link>
      </p>
      {problems.isError && <p role="alert">{errorTextOf(problems.error, 'The ingest problems could not be loaded.')}</p>}
      <section className="fleet__card" aria-labelledby="ingest-dead-letters">
        <h2 id="ingest-dead-letters">Dead letters</h2>
        <dl className="fleet__figures">
          <div className="fleet__figure">
            <dt className="fleet__label">Waiting for a re-drive</dt>
            <dd className="fleet__value">{data ? data.dead_letters : '…'}</dd>
          </div>
        </dl>
        <p className="fleet__muted">
          Batches the ingest gave up after its retries, and messages the IoT rule could not deliver. Once the cause is fixed, re-drive them with <code>npm run replay-dlq -- --aws</code>: the ingest
          is idempotent, so a record sent twice changes nothing.
        </p>
      </section>
      <section className="fleet__card" aria-labelledby="ingest-rejected">
        <h2 id="ingest-rejected">Rejected messages</h2>
        <label>
          Day (UTC){' '}
          <input
            type="date"
            value={day}
            min={daysBefore(today, REJECTED_DAYS_KEPT)}
            max={today}
            onChange={(event) => {
              if (!event.target.value) return;
              setDay(event.target.value);
              setCursors([]);
            }}
          />
        </label>
        {data && data.rejected.length === 0 && <p className="page__note">No messages were rejected on {data.day}.</p>}
        {data && data.rejected.length > 0 && (
          <div className="fleet__table-wrap">
            <table className="fleet__table" aria-label="Rejected messages">
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Topic</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Payload</th>
                </tr>
              </thead>
              <tbody>
                {data.rejected.map((r) => (
                  <tr key={`${r.received_at} ${r.topic} ${r.payload}`}>
                    <td>{formatWhen(r.received_at, FLEET_ZONE)}</td>
                    <td>{r.topic}</td>
                    <td>{r.reason}</td>
                    <td>
                      <code className="fleet__payload">{r.payload}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="fleet__pager">
          <button type="button" className="button button--text" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous page
          </button>
          <button type="button" className="button button--text" disabled={!data?.next} onClick={() => data?.next && setCursors((c) => [...c, data.next as string])}>
            Next page
          </button>
        </div>
      </section>
    </section>
  );
}
