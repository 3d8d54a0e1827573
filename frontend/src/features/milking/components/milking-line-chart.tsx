import type { ChartOptions } from 'chart.js';
import { Line } from 'react-chartjs-2';
import { CHART_HEIGHT } from '@shared/constants';
import { lineChartOptions, lineDataset, type LineSeries, type XView } from '../../../components/charts/vat-line-chart';
import { dayTick } from './milking-scatter';

interface MilkingLineChartProps {
  readonly label: string;
  readonly series: readonly LineSeries[];
  readonly unit: 'L' | '°C';
  readonly yTitle: 'Litres' | 'Temperatures';
  readonly from: number;
  readonly to: number;
  readonly view: XView | undefined;
  readonly onView: (view: XView) => void;
  /** The farm's zone (§9): ticks and tooltips read its clock. */
  readonly timeZone: string | undefined;
}

/** The options: the dashboard's (units in the farm's time in tooltips, the shared zoom), with day ticks for a month of milkings. */
const milkingLineOptions = (props: Omit<MilkingLineChartProps, 'label' | 'series'>): ChartOptions<'line'> => {
  const base = lineChartOptions({ ...props, shaded: [] });
  const x = base.scales?.['x'] as object;
  return { ...base, scales: { ...base.scales, x: { ...x, type: 'linear' as const, ticks: { callback: (v: number | string) => dayTick(Number(v), props.timeZone), maxTicksLimit: 6 } } } };
};

/**
 * A value per milking over the Milking tab's 30 days (farmer §2.6): the dashboard's line chart
 * shows readings a minute apart without dots; milkings are hours apart, so each is a dot.
 */
export function MilkingLineChart({ label, series, ...rest }: MilkingLineChartProps) {
  const data = { datasets: series.map((s) => lineDataset(s, 3)) };
  return (
    <div className="milking-chart" style={{ height: CHART_HEIGHT }}>
      <Line aria-label={label} role="img" data={data} options={milkingLineOptions(rest)} />
    </div>
  );
}
