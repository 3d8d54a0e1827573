import { useQuery } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import type { Farm } from '@shared/entities/farm';
import { localDayOf } from '@shared/time/local-day';
import { PageButtons } from '../../../components/page-buttons';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { dashboardLastAllQuery, fetchCsvRange, type ChartRange } from '../api/dashboard-last-all';
import { chartPoints } from '../../../components/charts/chart-data';
import { pickerDayText } from '../../../lib/time-format';
import { checkDays, defaultDays } from '../utils/date-range';
import { StorageHistory } from './storage-history';
import { VatCharts } from './vat-charts';
import type { XView } from '../../../components/charts/vat-line-chart';
import '../../../components/charts/charts.css';
import { ZoomControl } from '../../../components/charts/zoom-control';
import { FarmClockNote } from '../../../components/charts/farm-clock-note';
import { DeferOffscreenCharts, useNearScreen } from '../../../components/charts/idle-turn';

/** Vat-Man Pro and Vat-Man Auto get the date-range picker; other packages page by 2 days (farmer §2.5). */
const hasDatePicker = (pkg: Farm['package']): boolean => pkg === 'Vat-Man Pro' || pkg === 'Vat-Man Auto';

const errorText = (error: unknown): string => errorTextOf(error, 'The charts could not be loaded.');

function DatePicker({ today, onView }: { readonly today: string; readonly onView: (range: ChartRange) => void }) {
  const initial = defaultDays(today);
  const [fromText, setFromText] = useState(pickerDayText(initial.startDate));
  const [toText, setToText] = useState(pickerDayText(initial.endDate));
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDays(fromText, toText, today);
    if (!checked.ok) {
      setProblem(checked.message);
      return;
    }
    setProblem(undefined);
    onView({ kind: 'dates', startDate: checked.startDate, endDate: checked.endDate });
  };
  return (
    <form className="chart-range" onSubmit={submit} noValidate>
      <label className="chart-range__field">
        From
        <input value={fromText} onChange={(e) => setFromText(e.target.value)} placeholder="DD/MM/YYYY" inputMode="numeric" />
      </label>
      <label className="chart-range__field">
        To
        <input value={toText} onChange={(e) => setToText(e.target.value)} placeholder="DD/MM/YYYY" inputMode="numeric" />
      </label>
      <button type="submit" className="button">
        View
      </button>
      {problem && (
        <p className="chart-range__problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The per-vat charts of the milk dashboard with their range controls (farmer §2.5, §2.17). Loaded lazily: chart.js is large. */
export function VatChartsSection({
  farm,
  quiet = new Map(),
  now = Date.now(),
}: {
  readonly farm: Pick<Farm, '_id' | 'package' | 'timezone'>;
  /** The vats gone quiet, by device id, with their last reading's time: their charts say so in amber. */
  readonly quiet?: ReadonlyMap<string, { readonly at: string | undefined }>;
  readonly now?: number;
}) {
  const client = useApiClient();
  const [today] = useState(() => localDayOf(Date.now(), farm.timezone));
  // The last 2 days (§2.5): for the picker its default days, so From and To say what the charts show.
  const [range, setRangeOnly] = useState<ChartRange>(() =>
    hasDatePicker(farm.package) ? { kind: 'dates', ...defaultDays(today) } : { kind: 'page', page: 1 },
  );
  // One zoom for every chart on the screen; a new range starts zoomed out.
  const [view, setView] = useState<XView>();
  const setRange = (next: ChartRange) => {
    setView(undefined);
    setRangeOnly(next);
  };
  // On a phone the charts start below the cards: their readings (the largest answer of the screen,
  // parsed on the main thread) are asked for as the farmer scrolls towards them.
  const [place, near] = useNearScreen(true);
  // The charts span this section's width: the server answers at that resolution (two readings a
  // pixel), measured once, so a resize does not ask again (the chart scales what it has).
  // undefined: not measured yet; null: no layout to measure (the server's default then).
  const [width, setWidth] = useState<number | null>();
  const measure = useCallback(
    (el: HTMLDivElement | null) => {
      place(el);
      if (el) setWidth((w) => (w === undefined ? el.clientWidth || null : w));
    },
    [place],
  );
  const points = chartPoints(width ?? undefined);
  const { data, error, isFetching } = useQuery({ ...dashboardLastAllQuery(client, farm._id, range, today, points), placeholderData: (previous) => previous, enabled: near && width !== undefined });
  const csvData = (deviceId: string) => async () => (await fetchCsvRange(client, farm._id, range)).find((v) => v.device._id === deviceId);
  const page = range.kind === 'page' ? range.page : 1;

  // Twelve charts and the storage history under the cards: each draws as it nears the screen.
  return (
    <DeferOffscreenCharts value={true}>
      <div ref={measure} className="milk-charts">
        {hasDatePicker(farm.package) ? (
          <DatePicker today={today} onView={setRange} />
        ) : (
          <div className="chart-range">
            <PageButtons page={page} onPage={(p) => setRange({ kind: 'page', page: p })} />
          </div>
        )}
        <FarmClockNote timeZone={farm.timezone} />
        <ZoomControl view={view} onReset={() => setView(undefined)} />
        {error && (
          <p className="chart-range__problem" role="alert">
            {errorText(error)}
          </p>
        )}
        {isFetching && !data && <p className="page__note">Loading charts…</p>}
        {data && !error && data.map((item) => <VatCharts key={item.device._id} item={item} download={hasDatePicker(farm.package)} csvData={csvData(item.device._id)} view={view} onView={setView} timeZone={farm.timezone} quiet={quiet.get(item.device._id)} now={now} />)}
        <StorageHistory farm={farm} />
      </div>
    </DeferOffscreenCharts>
  );
}
