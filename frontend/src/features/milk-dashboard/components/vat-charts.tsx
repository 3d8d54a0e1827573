import { useMemo } from 'react';
import { rowsOfColumns } from '@shared/telemetry/range-columns';
import type { VatLastAll, VatLastAllColumns } from '../api/dashboard-last-all';
import { bandsOf, batteryOffBands, columnSeries, columnTemperatureSeries, milkingMarkers, temperatureLimitLines } from '../../../components/charts/chart-data';
import { buildDataCsv, DATA_CSV_NAME } from '../utils/data-csv';
import { VatLineChart, type LineSeries, type Marker, type ShadedBands, type XView } from '../../../components/charts/vat-line-chart';
import { saveFile } from '../../../lib/save-file';
import { NoDataSince } from './no-data-since';

const AGITATOR_STOP = 'rgb(240 168 48 / 25%)';
const OUTAGE = 'rgb(198 40 40 / 18%)';
const BATTERY_OFF = 'rgb(91 103 117 / 18%)';

/**
 * Saves the vat's readings of the range as data.csv (farmer §2.5, Pro and Auto): asked again at the
 * finest resolution when `csvData` is given (the charts' answer holds two readings a pixel).
 */
const downloadCsv = async (item: VatLastAllColumns, timeZone: string | undefined, csvData: (() => Promise<VatLastAll | undefined>) | undefined) => {
  const fine = await csvData?.();
  const { detail, cooler } = fine ? { detail: fine.detailData, cooler: fine.coolerData } : rowsOfColumns(item.columns);
  saveFile(buildDataCsv(detail, cooler, timeZone), DATA_CSV_NAME, 'text/csv;charset=utf-8');
};

/**
 * What the vat's charts draw, built once per answer (a zoom or a chart's turn to draw renders
 * again with the same answer): each series read from its column, the bands and markers.
 */
const useVatChartData = (item: VatLastAllColumns) =>
  useMemo((): { from: number; to: number; outages: ShadedBands; stops: ShadedBands; batteryOff: ShadedBands; markers: Marker[]; temperatures: LineSeries[]; volume: LineSeries[]; stirrer: LineSeries[] } => {
    const from = Date.parse(item.range.from);
    const to = Date.parse(item.range.to);
    return {
      from,
      to,
      outages: { bands: bandsOf(item.outageData, to), colour: OUTAGE },
      stops: { bands: bandsOf(item.agitatorData.listStop, to), colour: AGITATOR_STOP },
      batteryOff: { bands: batteryOffBands(item.batteryData, to), colour: BATTERY_OFF },
      markers: milkingMarkers(item.phyStateData),
      temperatures: [...columnTemperatureSeries(item.columns), ...temperatureLimitLines(from, to)],
      volume: [{ label: 'Milk Volume', data: columnSeries(item.columns, 'milk_volume'), colour: '#1d4f91' }],
      stirrer: [{ label: 'Stirrer', data: columnSeries(item.columns, 'agitator_status').filter((p) => p.y === 0 || p.y === 1), colour: '#5b6775', stepped: true }],
    };
  }, [item]);

/**
 * The charts of one vat (farmer §2.5, §2.17, §4, §9): the seven temperatures (the vat's shown, the
 * others behind the legend) with the 6 and 10 °C lines, volume with agitator stops, the stirrer;
 * each marks milking start and end.
 */
interface VatChartsProps {
  readonly item: VatLastAllColumns;
  readonly download: boolean;
  /** The vat's range at the finest resolution, for data.csv; without it the file is the charts' data. */
  readonly csvData?: (() => Promise<VatLastAll | undefined>) | undefined;
  readonly view: XView | undefined;
  readonly onView: (view: XView) => void;
  /** The farm's zone: the charts and data.csv read its clock (§9). */
  readonly timeZone: string | undefined;
  /** The vat has gone quiet: since when. */
  readonly quiet?: { readonly at: string | undefined } | undefined;
  readonly now?: number;
}

export function VatCharts({ item, download, csvData, view, onView, timeZone, quiet, now = Date.now() }: VatChartsProps) {
  const n = item.device.vat_number;
  const { from, to, outages, stops, batteryOff, markers, temperatures, volume, stirrer } = useVatChartData(item);
  const headingId = `vat-charts-${item.device._id}`;
  // Every chart of the vat shows the same time window and zooms together.
  const span = { from, to, view, onView, timeZone, markers };
  return (
    <section className={quiet ? 'card vat-charts vat-charts--stale' : 'card vat-charts'} aria-label={`Vat ${n} charts`}>
      <div className="vat-charts__header">
        <h2 className="card__title vat-charts__title" id={headingId}>
          Vat {n}
        </h2>
        {download && (
          <button type="button" className="button" onClick={() => void downloadCsv(item, timeZone, csvData).catch(() => undefined /* the API client has shown the failure */)} aria-label={`Download Vat ${n} data`}>
            Download
          </button>
        )}
      </div>
      {quiet && <NoDataSince at={quiet.at} now={now} timeZone={timeZone} />}
      {item.columns.t.length === 0 && <p className="page__note">No readings in this range.</p>}
      <VatLineChart
        label={`Vat ${n} temperatures`}
        unit="°C"
        yTitle="Temperatures"
        {...span}
        shaded={[outages, batteryOff]}
        series={temperatures}
      />
      <VatLineChart
        label={`Vat ${n} milk volume`}
        unit="L"
        yTitle="Litres"
        {...span}
        shaded={[stops, outages, batteryOff]}
        series={volume}
      />
      <VatLineChart
        label={`Vat ${n} stirrer`}
        unit="stirrer"
        yTitle="Stirrer"
        {...span}
        shaded={[stops, outages, batteryOff]}
        series={stirrer}
      />
      <p className="vat-charts__legend">
        <span className="vat-charts__key">
          <span className="vat-charts__swatch vat-charts__swatch--stop" /> Agitator Stopped
        </span>{' '}
        <span className="vat-charts__key">
          <span className="vat-charts__swatch vat-charts__swatch--outage" /> Outage
        </span>{' '}
        <span className="vat-charts__key">
          <span className="vat-charts__swatch vat-charts__swatch--battery" /> Battery off
        </span>
      </p>
    </section>
  );
}
