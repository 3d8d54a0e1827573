import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DEFAULT_SERIES_HOURS, SERIES_RANGES, rawId, type SeriesAnswer } from '@shared/api/actions/admin-device';
import { NO_MORE_DATA } from '@shared/api/range';
import { bandsOf, chartPoints, seriesOf } from '../../../components/charts/chart-data';
import { VatLineChart, type Marker, type XView } from '../../../components/charts/vat-line-chart';
import { ZoomControl } from '../../../components/charts/zoom-control';
import { useSnackbar } from '../../../components/snackbar';
import { useApiClient } from '../../../lib/api-client-provider';
import { deviceSeriesQuery, type SeriesWindow } from '../api/devices';
import { MARKER_COLOURS } from '../utils/fleet';

const HOUR = 3_600_000;
const AGITATOR_STOP = 'rgba(255, 152, 0, 0.18)';

/** The nearest reading to an instant, within the window, as its raw message id. */
const nearestRaw = (deviceId: string, data: SeriesAnswer, x: number): string | undefined => {
  let best: { at: string; d: number } | undefined;
  for (const p of data.vat) {
    const d = Math.abs(Date.parse(p.published_at) - x);
    if (!best || d < best.d) best = { at: p.published_at, d };
  }
  return best ? rawId(deviceId, best.at) : undefined;
};

/**
 * operator §2 device series: Milk Level (mm), Temperatures (°C) and Vibration; range buttons,
 * Previous/Next by the range ('No more data!' past the present), zoom synced across the charts,
 * agitator stops shaded, message types as vertical lines; a click opens the nearest raw message.
 * Axis and tooltip times are the farm's clock, as the page's other times.
 */
export function DeviceSeries({ deviceId, timeZone, onRaw }: { readonly deviceId: string; readonly timeZone: string; readonly onRaw: (id: string) => void }) {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const [hours, setHours] = useState<number>(DEFAULT_SERIES_HOURS);
  const [window, setWindow] = useState<SeriesWindow>({ kind: 'latest', hours: DEFAULT_SERIES_HOURS });
  const [lines, setLines] = useState(false);
  const [view, setView] = useState<XView | undefined>(undefined);
  // The charts span the page: its width, taken once, is the resolution the server answers at.
  const [points] = useState(() => (typeof document === 'undefined' ? undefined : chartPoints(document.documentElement.clientWidth)));
  const q = useQuery(deviceSeriesQuery(client, deviceId, window, points));

  const from = q.data ? Date.parse(q.data.from) : 0;
  const to = q.data ? Date.parse(q.data.to) : 0;
  const chooseRange = (h: number) => {
    setHours(h);
    setView(undefined);
    setWindow({ kind: 'latest', hours: h });
  };
  const page = (direction: -1 | 1) => {
    const end = (window.kind === 'latest' ? Date.now() : window.end) + direction * hours * HOUR;
    if (end > Date.now()) {
      if (window.kind === 'latest') return snackbar.show(NO_MORE_DATA);
      // Back to the present: the latest window again.
      setView(undefined);
      return setWindow({ kind: 'latest', hours });
    }
    setView(undefined);
    setWindow({ kind: 'range', start: end - hours * HOUR, end });
  };

  const charts = useMemo(() => {
    if (!q.data) return undefined;
    const d = q.data;
    const shaded = [{ bands: bandsOf(d.agitatorData.listStop, to), colour: AGITATOR_STOP }];
    const markers: Marker[] = lines
      ? d.vat.flatMap((p) => (p.message_type && MARKER_COLOURS[p.message_type] ? [{ at: Date.parse(p.published_at), colour: MARKER_COLOURS[p.message_type] as string }] : []))
      : [];
    const common = { from, to, shaded, markers, view, timeZone, onView: setView, onPick: (x: number) => {
      const id = nearestRaw(deviceId, d, x);
      if (id) onRaw(id);
    } };
    return { common, d };
  }, [q.data, lines, view, from, to, timeZone, deviceId, onRaw]);

  return (
    <section className="device-series" aria-label="Series">
      <div className="device-series__tools">
        <div role="group" aria-label="Range" className="device-series__ranges">
          {SERIES_RANGES.map((r) => (
            <button key={r.label} type="button" aria-pressed={hours === r.hours} onClick={() => chooseRange(r.hours)}>
              {r.label}
            </button>
          ))}
        </div>
        <div className="device-series__paging">
          <button type="button" className="button button--text" onClick={() => page(-1)}>
            Previous
          </button>
          <button type="button" className="button button--text" onClick={() => page(1)}>
            Next
          </button>
        </div>
        <label className="devices__toggle">
          <input type="checkbox" role="switch" checked={lines} onChange={(e) => setLines(e.target.checked)} />
          Show Vertical Line
        </label>
        <ZoomControl view={view} onReset={() => setView(undefined)} />
      </div>
      {!charts ? (
        <p className="page__note">{q.isError ? 'The series could not be loaded.' : 'Loading…'}</p>
      ) : (
        <>
          <VatLineChart label="Milk Level (mm)" unit="mm" yTitle="Milk Level (mm)" series={[{ label: 'Milk Level', data: seriesOf(charts.d.vat, 'milk_level'), colour: '#1565c0' }]} {...charts.common} />
          <VatLineChart
            label="Temperatures (°C)"
            unit="°C"
            yTitle="Temperatures (°C)"
            yMin={null}
            series={[
              { label: 'Vat', data: seriesOf(charts.d.vat, 'temp1'), colour: '#1565c0' },
              { label: 'Inlet', data: seriesOf(charts.d.vat, 'temp2'), colour: '#c62828' },
              { label: 'Plate', data: seriesOf(charts.d.vat, 'temp3'), colour: '#2e7d32' },
            ]}
            {...charts.common}
          />
          <VatLineChart label="Vibration" unit="rpm" yTitle="Vibration" series={[{ label: 'Vibration', data: seriesOf(charts.d.vat, 'shaft_rpm'), colour: '#6a1b9a' }]} {...charts.common} />
        </>
      )}
    </section>
  );
}
