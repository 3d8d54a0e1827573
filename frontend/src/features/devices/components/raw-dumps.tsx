import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RAW_ARCHIVE_DAYS } from '@shared/constants';
import { addDays, localDayOf } from '@shared/time/local-day';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatDay as dayText, formatWhen } from '../../../lib/time-format';
import { deviceRawsQuery } from '../api/devices';


/** The farm's local day `days` before today, as YYYY-MM-DD (as the server counts DEVICE_ONE_RAWS' days). */
const localDay = (days: number, timeZone: string) => addDays(localDayOf(Date.now(), timeZone), -days);

/** Saves text as a file. */
const download = (name: string, text: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
};

/** operator §2 raw dumps: a drawer of the last 30 days ('RAW' + date); a day opens full screen with Download. */
export function RawDumps({ deviceId, deviceName, timeZone, onClose }: { readonly deviceId: string; readonly deviceName: string; readonly timeZone: string; readonly onClose: () => void }) {
  const [days, setDays] = useState<number | undefined>(undefined);
  return (
    <>
      <nav className="raw-drawer" aria-label="Raw data by day">
        <button type="button" className="raw-drawer__close" onClick={onClose} aria-label="Close raw data">
          ×
        </button>
        <ul>
          {Array.from({ length: RAW_ARCHIVE_DAYS }, (_, i) => (
            <li key={i}>
              <button type="button" onClick={() => setDays(i)} aria-current={days === i ? 'true' : undefined}>
                RAW {dayText(localDay(i, timeZone))}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {days !== undefined && <RawDay deviceId={deviceId} deviceName={deviceName} days={days} timeZone={timeZone} onClose={() => setDays(undefined)} />}
    </>
  );
}

function RawDay({ deviceId, deviceName, days, timeZone, onClose }: { readonly deviceId: string; readonly deviceName: string; readonly days: number; readonly timeZone: string; readonly onClose: () => void }) {
  const client = useApiClient();
  const q = useQuery(deviceRawsQuery(client, deviceId, days));
  return (
    <div className="raw-day" role="dialog" aria-modal="true" aria-label={q.data ? `RAW ${dayText(q.data.day)}` : 'Raw data'}>
      <header className="raw-day__bar">
        <h2>{q.data ? `RAW ${dayText(q.data.day)}` : 'RAW'}</h2>
        <button type="button" className="button" disabled={!q.data} onClick={() => q.data && download(`${deviceName}-${q.data.day}.jsonl`, q.data.raws.map((r) => r.raw).join('\n') + '\n')}>
          Download
        </button>
        <button type="button" className="button button--text" onClick={onClose}>
          Close
        </button>
      </header>
      {!q.data ? (
        <p className="page__note">{q.isError ? 'The raw data could not be loaded.' : 'Loading…'}</p>
      ) : q.data.raws.length === 0 ? (
        <p className="page__note">No messages on this day.</p>
      ) : (
        <ol className="raw-day__list">
          {q.data.raws.map((r) => (
            <li key={r._id}>
              <time dateTime={r.published_at}>{formatWhen(r.published_at, timeZone)}</time>
              <code>{r.raw}</code>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
