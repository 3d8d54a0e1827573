import { Chart as ChartJS, type ChartType, Decimation, Legend, LinearScale, LineElement, PointElement, Tooltip, type ChartOptions, type Plugin } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { Line } from 'react-chartjs-2';
import { CHART_HEIGHT } from '@shared/constants';
import { formatTick, niceTimeTicks } from '../../lib/time-format';
import { type Band, type ChartUnit, type LineSeries, type Marker, stirrerText, type XY, tooltipLines } from './chart-data';

export type { LineSeries, Marker };
import { useChartTurn } from './idle-turn';
import { LABEL_ROW_HEIGHT, placeMarkerLabels } from './marker-labels';
import './charts.css';

ChartJS.register(LineElement, PointElement, LinearScale, Tooltip, Legend, Decimation, zoomPlugin);

/**
 * Series longer than this are drawn decimated to the chart's pixel width (chart.js min-max: the
 * lowest and highest value of each pixel column, so peaks stay), recomputed for the zoomed window.
 * A 30-day range has about 3,200 points a series; a phone's chart is about 350 px wide.
 */
const DECIMATE_ABOVE_POINTS = 1_000;

export interface ShadedBands {
  readonly bands: readonly Band[];
  readonly colour: string;
}



declare module 'chart.js' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the parameter must match chart.js's declaration
  interface PluginOptionsByType<TType extends ChartType> {
    /** Our band shading (agitator stops, outages): per chart, so it is typed here. */
    bands?: { readonly shaded: readonly ShadedBands[] };
    /** Our vertical marker lines. */
    markers?: { readonly lines: readonly Marker[] };
  }
}

/**
 * Draws each marker as a vertical line over the plot area, its label (if any) at the top, on a pale
 * ground so lines behind it do not strike it through; labels of close markers stack in rows
 * (marker-labels.ts) rather than print over each other.
 */
export const markersPlugin: Plugin<'line'> = {
  id: 'markers',
  afterDatasetsDraw(chart, _args, options: { lines?: readonly Marker[] }) {
    const { ctx, chartArea, scales } = chart;
    const x = scales['x'];
    if (!x || !options.lines?.length) return;
    ctx.save();
    ctx.lineWidth = 1;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    const shown = options.lines.map((m) => ({ m, px: x.getPixelForValue(m.at) })).filter(({ px }) => px >= chartArea.left && px <= chartArea.right);
    for (const { m, px } of shown) {
      ctx.strokeStyle = m.colour;
      ctx.setLineDash(m.dashed ? [4, 4] : []);
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
    }
    const labelled = shown.flatMap(({ m, px }) => (m.label ? [{ label: m.label, colour: m.colour, px, width: ctx.measureText(m.label).width }] : []));
    placeMarkerLabels(labelled, chartArea).forEach((spot, i) => {
      const l = labelled[i];
      if (!spot || !l) return;
      const top = chartArea.top + 2 + spot.row * LABEL_ROW_HEIGHT;
      ctx.fillStyle = 'rgb(255 255 255 / 70%)';
      ctx.fillRect(spot.x - 1, top - 1, l.width + 2, LABEL_ROW_HEIGHT - 1);
      ctx.fillStyle = l.colour;
      ctx.fillText(l.label, spot.x, top);
    });
    ctx.restore();
  },
};

/** Shades periods behind the lines (farmer §2.17): agitator stops, outages. */
const bandsPlugin: Plugin<'line'> = {
  id: 'bands',
  beforeDatasetsDraw(chart, _args, options: { shaded?: readonly ShadedBands[] }) {
    const { ctx, chartArea, scales } = chart;
    const x = scales['x'];
    if (!x || !options.shaded) return;
    ctx.save();
    for (const { bands, colour } of options.shaded) {
      ctx.fillStyle = colour;
      for (const b of bands) {
        const left = Math.max(chartArea.left, x.getPixelForValue(b.from));
        const right = Math.min(chartArea.right, x.getPixelForValue(b.to));
        if (right > left) ctx.fillRect(left, chartArea.top, right - left, chartArea.bottom - chartArea.top);
      }
    }
    ctx.restore();
  },
};

/** The x range every chart of the dashboard shows after a zoom or pan (§2.17: zooming one applies to the others). */
export interface XView {
  readonly min: number;
  readonly max: number;
}

interface VatLineChartProps {
  readonly label: string;
  readonly series: readonly LineSeries[];
  readonly unit: ChartUnit;
  readonly yTitle: string;
  /** The y axis starts here; `null` lets chart.js choose (below zero allowed). @default 0 */
  readonly yMin?: number | null;
  /** Vertical lines at instants (the device page's message types). */
  readonly markers?: readonly Marker[];
  readonly from: number;
  readonly to: number;
  readonly shaded: readonly ShadedBands[];
  /** The shared zoomed range; undefined shows the whole range. */
  readonly view?: XView | undefined;
  readonly onView?: ((view: XView) => void) | undefined;
  /** A click on the plot, as the time under the pointer (the storage history opens the storage clicked, §2.7). */
  readonly onPick?: ((x: number) => void) | undefined;
  /** The farm's zone: ticks and tooltips read its clock (§9); undefined is the browser's (the operator's device pages). */
  readonly timeZone?: string | undefined;
}

/**
 * The y axis's width in px, whatever its labels: charts stacked on one page (volume over
 * temperature) then have their plot areas, and so their time axes, exactly one above the other.
 * Wide enough for '5,500' with the axis title.
 */
export const Y_AXIS_WIDTH = 72;

/** The options of a vat chart, apart from the component so a test can read them. */
export const lineChartOptions = ({ unit, yTitle, yMin = 0, markers = [], from, to, shaded, view, onView, onPick, timeZone }: Omit<VatLineChartProps, 'label' | 'series'>): ChartOptions<'line'> => {
  const report = ({ chart }: { chart: ChartJS }) => {
    const x = chart.scales['x'];
    if (x && onView) onView({ min: x.min, max: x.max });
  };
  return {
    responsive: true,
    maintainAspectRatio: false,
    ...(onPick && {
      onClick: (event, _elements, chart) => {
        const x = chart.scales['x'];
        if (x && event.x !== null && event.x >= chart.chartArea.left && event.x <= chart.chartArea.right) onPick(x.getValueForPixel(event.x) ?? Number.NaN);
      },
    }),
    animation: false,
    parsing: false,
    normalized: true,
    interaction: { mode: 'nearest', axis: 'x', intersect: false },
    scales: {
      x: {
        type: 'linear',
        min: view?.min ?? from,
        max: view?.max ?? to,
        // Round times of the farm's clock (whole hours, midnights) rather than evenly spread odd minutes.
        afterBuildTicks: (axis) => {
          axis.ticks = niceTimeTicks(axis.min, axis.max, timeZone).map((value) => ({ value }));
        },
        ticks: { callback: (v) => formatTick(Number(v), timeZone) },
      },
      y: {
        ...(unit === 'stirrer'
          ? { type: 'linear', min: 0, max: 1, title: { display: true, text: yTitle }, ticks: { stepSize: 1, callback: (v: number | string) => stirrerText(Number(v)) } }
          : yMin === null
            ? { type: 'linear', title: { display: true, text: yTitle } }
            : { type: 'linear', beginAtZero: true, min: yMin, title: { display: true, text: yTitle } }),
        afterFit: (axis: { width: number }) => {
          axis.width = Y_AXIS_WIDTH;
        },
      },
    },
    plugins: {
      legend: { position: 'bottom' },
      tooltip: {
        filter: (item) => !(item.dataset as { reference?: boolean }).reference,
        callbacks: {
          title: (items) => (items[0] ? tooltipLines(items[0].parsed.x ?? 0, items[0].parsed.y ?? 0, unit, timeZone)[0] : ''),
          label: (item) => `${item.dataset.label ?? ''}: ${tooltipLines(item.parsed.x ?? 0, item.parsed.y ?? 0, unit, timeZone)[1]}`,
        },
      },
      decimation: { enabled: true, algorithm: 'min-max', threshold: DECIMATE_ABOVE_POINTS },
      bands: { shaded },
      markers: { lines: markers },
      zoom: {
        limits: { x: { min: from, max: to } },
        // The wheel zooms only with Ctrl: a page of charts must still scroll under the mouse wheel.
        zoom: { wheel: { enabled: true, modifierKey: 'ctrl' }, pinch: { enabled: true }, mode: 'x', onZoomComplete: report },
        pan: { enabled: true, mode: 'x', onPanComplete: report },
      },
    },
  };
};

/** A series as chart.js draws it: a reference line thin, dashed and without dots; the others with dots of `pointRadius`. */
export const lineDataset = (s: LineSeries, pointRadius = 0) => ({
  label: s.label,
  data: s.data as XY[],
  borderColor: s.colour,
  backgroundColor: s.colour,
  borderWidth: s.reference ? 1 : 2,
  borderDash: s.reference ? [6, 4] : [],
  pointRadius: s.reference ? 0 : pointRadius,
  reference: s.reference ?? false,
  hidden: s.hidden ?? false,
  stepped: s.stepped ?? false,
});

/** A line chart 300 px high (§9) on a time axis, with shaded periods; readings a minute apart, so no dots. */
export function VatLineChart(props: VatLineChartProps) {
  // Drawn when its turn comes (idle-turn.ts); until then the space it takes, so nothing moves.
  const [place, ready] = useChartTurn();
  if (!ready) return <div ref={place} className="vat-chart" style={{ height: CHART_HEIGHT }} aria-busy="true" />;
  const data = { datasets: props.series.map((s) => lineDataset(s)) };
  return (
    <div ref={place} className="vat-chart" style={{ height: CHART_HEIGHT }}>
      <Line aria-label={props.label} role="img" data={data} options={lineChartOptions(props)} plugins={[bandsPlugin, markersPlugin]} />
    </div>
  );
}
