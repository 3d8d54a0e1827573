import { Chart as ChartJS, Legend, LinearScale, PointElement, Tooltip, type ActiveElement, type ChartOptions, type Plugin } from 'chart.js';
import { useMemo, useRef, useState } from 'react';
import { Scatter } from 'react-chartjs-2';
import { useNavigate } from 'react-router-dom';
import { CHART_HEIGHT } from '@shared/constants';
import { paths } from '../../../config/paths';
import { tooltipLines } from '../../../components/charts/chart-data';
import { formatDayTick } from '../../../lib/time-format';
import { dateTime, litres, type ScatterPoint } from '../utils/milking-view';

ChartJS.register(PointElement, LinearScale, Tooltip, Legend);

export interface ScatterSet {
  readonly label: string;
  readonly colour: string;
  readonly points: readonly ScatterPoint[];
  /** Dot radius in px; 5 unless set (the milking on show is drawn larger). */
  readonly radius?: number;
}

/** A day tick on a range of weeks: '22 Nov' on the farm's calendar. */
export const dayTick = (x: number, timeZone: string | undefined): string => formatDayTick(x, timeZone);

/** The options of the scatter, apart from the component so a test can call its click handler. */
const scatterOptions = (sets: readonly ScatterSet[], from: number, to: number, open: (id: string) => void, timeZone: string | undefined): ChartOptions<'scatter'> => {
  const pointOf = (el: ActiveElement | undefined) => (el ? sets[el.datasetIndex]?.points[el.index] : undefined);
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    parsing: false,
    interaction: { mode: 'nearest', intersect: true },
    scales: {
      x: { type: 'linear', min: from, max: to, ticks: { callback: (v) => dayTick(Number(v), timeZone), maxTicksLimit: 6 } },
      y: { type: 'linear', beginAtZero: true, min: 0, title: { display: true, text: 'Litres' } },
    },
    onClick: (_event, elements) => {
      const p = pointOf(elements[0]);
      if (p) open(p.id);
    },
    onHover: (event, elements) => {
      const target = event.native?.target;
      if (target instanceof HTMLElement) target.style.cursor = elements.length ? 'pointer' : 'default';
    },
    plugins: {
      legend: { position: 'bottom' },
      tooltip: {
        callbacks: {
          title: (items) => (items[0] ? tooltipLines(items[0].parsed.x ?? 0, 0, 'L', timeZone)[0] : ''),
          label: (item) => `${item.dataset.label ?? ''}: ${tooltipLines(item.parsed.x ?? 0, item.parsed.y ?? 0, 'L', timeZone)[1]}`,
          footer: () => 'Click to open the milking',
        },
      },
    },
  };
};

interface PlacedPoint {
  readonly id: string;
  readonly label: string;
  readonly left: number;
  readonly top: number;
}

/**
 * The milking volume comparison (farmer §2.6): each milking's litres at its start, one colour per
 * vat; clicking a point opens /dts/milking/{id}. A canvas is no use to a keyboard or a screen
 * reader, so each drawn point also gets a transparent link-like button at its place (mouse clicks
 * pass through to the chart; Tab and Enter reach the button).
 */
interface MilkingScatterProps {
  readonly label: string;
  readonly sets: readonly ScatterSet[];
  readonly from: number;
  readonly to: number;
  /** The farm's zone (§9): ticks, tooltips and the points' names read its clock. */
  readonly timeZone: string | undefined;
}

export function MilkingScatter({ label, sets, from, to, timeZone }: MilkingScatterProps) {
  const zoneRef = useRef(timeZone);
  zoneRef.current = timeZone;
  const navigate = useNavigate();
  const [placed, setPlaced] = useState<readonly PlacedPoint[]>([]);
  const setPlacedRef = useRef(setPlaced);
  const setsRef = useRef(sets);
  setsRef.current = sets;
  // Where chart.js drew each point, after every draw (resize, legend toggles); state changes only when a point moved.
  const placer = useMemo<Plugin<'scatter'>>(
    () => ({
      id: 'placer',
      afterDraw(chart) {
        const next: PlacedPoint[] = [];
        setsRef.current.forEach((set, i) => {
          const meta = chart.getDatasetMeta(i);
          if (meta.hidden) return;
          set.points.forEach((p, j) => {
            const el = meta.data[j];
            if (!el || !Number.isFinite(el.x) || !Number.isFinite(el.y)) return;
            next.push({ id: p.id, label: `${set.label}, ${dateTime(new Date(p.x).toISOString(), zoneRef.current)}, ${litres(p.y)}`, left: el.x, top: el.y });
          });
        });
        setPlacedRef.current((prev) =>
          prev.length === next.length && prev.every((p, k) => p.id === next[k]?.id && Math.abs(p.left - (next[k]?.left ?? 0)) < 0.5 && Math.abs(p.top - (next[k]?.top ?? 0)) < 0.5)
            ? prev
            : next,
        );
      },
    }),
    [],
  );
  const open = (id: string) => void navigate(paths.milkingDetail.to(id));
  const data = {
    datasets: sets.map((s) => ({ label: s.label, data: s.points.map(({ x, y }) => ({ x, y })), borderColor: s.colour, backgroundColor: s.colour, pointRadius: s.radius ?? 5, pointHoverRadius: (s.radius ?? 5) + 2 })),
  };
  return (
    <div className="milking-chart milking-scatter" style={{ height: CHART_HEIGHT }}>
      <Scatter aria-label={label} role="img" data={data} options={scatterOptions(sets, from, to, open, timeZone)} plugins={[placer]} />
      {placed.map((p) => (
        <button key={p.id} type="button" className="milking-scatter__point" style={{ left: p.left, top: p.top }} aria-label={`Open milking: ${p.label}`} onClick={() => open(p.id)} />
      ))}
    </div>
  );
}
