import type { ChartOptions } from 'chart.js';
import { Line } from 'react-chartjs-2';
import type { DetailPoint } from '@shared/api/actions/farmer-activity';
import { CHART_HEIGHT } from '@shared/constants';
import { referenceLine, seriesOf } from '../../../components/charts/chart-data';
import { lineChartOptions, markersPlugin } from '../../../components/charts/vat-line-chart';
import { formatClock } from '../../../lib/time-format';

/** The cooling chart's y axis (farmer §2.6): 0 to 15 °C, where the 6 and 10 °C rules are read. */
const COOLING_Y_MAX = 15;

/** A milking marker: its label and instant (drawn dashed, grey, by the charts' markers plugin). */
interface ChartMarker {
  readonly label: string;
  readonly at: number;
}

const MARKER_COLOUR = '#5b6775';
const HOUR = 3_600_000;

/** A tick of the cooling chart: the farm's time 'HH:mm'. */
const hourTick = (x: number, timeZone: string | undefined): string => formatClock(x, timeZone, false);

interface CoolingChartProps {
  readonly label: string;
  /** The readings to draw, already cut at state 'empty'. */
  readonly points: readonly DetailPoint[];
  readonly from: number;
  readonly to: number;
  readonly markers: readonly ChartMarker[];
  /** The farm's zone (§9): ticks and tooltips read its clock. */
  readonly timeZone: string | undefined;
}

/** The options of the cooling chart, apart from the component so a test can read them. */
const coolingChartOptions = ({ from, to, markers, timeZone }: Pick<CoolingChartProps, 'from' | 'to' | 'markers' | 'timeZone'>): ChartOptions<'line'> => {
  const base = lineChartOptions({ unit: '°C', yTitle: 'Temperatures', from, to, shaded: [], timeZone });
  return {
    ...base,
    scales: {
      ...base.scales,
      // Hours of one milking: a tick on each whole hour that fits, as HH:mm.
      x: { ...(base.scales?.['x'] as object), type: 'linear' as const, ticks: { callback: (v: number | string) => hourTick(Number(v), timeZone), stepSize: HOUR, autoSkip: true, maxRotation: 0 } },
      y: { type: 'linear' as const, min: 0, max: COOLING_Y_MAX, ticks: { stepSize: 1 }, title: { display: true, text: 'Temperatures' } },
    },
    plugins: { ...base.plugins, markers: { lines: markers.map((m) => ({ ...m, colour: MARKER_COLOUR, dashed: true })) } },
  };
};

/**
 * The milking's cooling trend (farmer §2.6): the vat temperature from the start until the vat is
 * empty, inlet and plate behind the legend, the §9 lines at 6 and 10 °C, and the markers.
 */
export function CoolingChart({ label, points, from, to, markers, timeZone }: CoolingChartProps) {
  const line = (name: string, data: { x: number; y: number }[], colour: string, extra: { hidden?: boolean; reference?: boolean } = {}) => ({
    label: name,
    data,
    borderColor: colour,
    backgroundColor: colour,
    borderWidth: extra.reference ? 1 : 2,
    borderDash: extra.reference ? [6, 4] : [],
    pointRadius: 0,
    reference: extra.reference ?? false,
    hidden: extra.hidden ?? false,
  });
  const data = {
    datasets: [
      line('Vat', seriesOf(points, 'temp1'), '#1d4f91'),
      // Milk at the inlet and after the plate cooler is warmer than the 0-15 °C axis shows: the legend brings them in.
      line('Inlet', seriesOf(points, 'temp2'), '#b26a00', { hidden: true }),
      line('Plate', seriesOf(points, 'temp3'), '#00838f', { hidden: true }),
      line('10 °C', referenceLine(10, from, to), '#c62828', { reference: true }),
      line('6 °C', referenceLine(6, from, to), '#2e6b31', { reference: true }),
    ],
  };
  return (
    <div className="milking-chart" style={{ height: CHART_HEIGHT }}>
      <Line aria-label={label} role="img" data={data} options={coolingChartOptions({ from, to, markers, timeZone })} plugins={[markersPlugin]} />
    </div>
  );
}
