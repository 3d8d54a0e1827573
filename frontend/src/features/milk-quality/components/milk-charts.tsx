import type { MilkData } from '@shared/api/actions/milk-quality';
import { bandsOf, batteryOffBands, milkingMarkers, referenceLine, seriesOf, type XY } from '../../../components/charts/chart-data';
import { QUALITY_BANDS } from '../../../components/charts/quality-bands';
import { VatLineChart, type ShadedBands, type XView } from '../../../components/charts/vat-line-chart';

/** Shading colours: the dashboard's, the outage in the critical colour (operator §2). */
export const SHADE = {
  agitator: 'rgb(240 168 48 / 25%)',
  battery: 'rgb(91 103 117 / 20%)',
  outage: 'rgb(198 40 40 / 28%)',
} as const;

/** Which shadings are on (operator §2 toggles Agitator Stopped, On Battery, Data Outage). */
export interface Shading {
  readonly agitator: boolean;
  readonly battery: boolean;
  readonly outage: boolean;
}

/** The §9 gauge range starts at 3: the bands sit above it. */
const QUALITY_MIN = 3;

const qualitySeries = (data: MilkData, key: 'currentEstCFU' | 'pickupEstCFU'): XY[] =>
  data.detailData.flatMap((p) => {
    const v = p.quality?.[key];
    return typeof v === 'number' && Number.isFinite(v) ? [{ x: Date.parse(p.published_at), y: v }] : [];
  });

const coolerSeries = (data: MilkData, key: 'milk_in' | 'water_in'): XY[] =>
  data.coolerData.flatMap((c) => {
    const v = c[key];
    return v === null ? [] : [{ x: Date.parse(c.published_at), y: v }];
  });

/** The bands each toggle shades, from the answer's periods. */
const shadedBands = (data: MilkData, shading: Shading): ShadedBands[] => {
  const to = Date.parse(data.range.to);
  return [
    ...(shading.agitator ? [{ bands: bandsOf(data.agitatorData.listStop, to), colour: SHADE.agitator }] : []),
    ...(shading.battery ? [{ bands: batteryOffBands(data.batteryData, to), colour: SHADE.battery }] : []),
    ...(shading.outage ? [{ bands: bandsOf(data.outageData, to), colour: SHADE.outage }] : []),
  ];
};

interface MilkChartsProps {
  readonly data: MilkData;
  readonly shading: Shading;
  readonly view: XView | undefined;
  readonly onView: (view: XView) => void;
}

/**
 * The charts of operator §2 'Charts used by these views': 'Milk Volume' (Litres from 0) and
 * 'Temperatures' (from 0) with the spec's series, and the quality estimates with the §9 bands as
 * lines at their upper limits. One zoom for all three.
 */
export function MilkCharts({ data, shading, view, onView }: MilkChartsProps) {
  const from = Date.parse(data.range.from);
  const to = Date.parse(data.range.to);
  const shaded = shadedBands(data, shading);
  const span = { from, to, view, onView, shaded, timeZone: data.farm.timezone, markers: milkingMarkers(data.phyStateData) };
  return (
    <div className="milk-quality__charts">
      <h2 className="milk-quality__chart-title">Milk Volume</h2>
      <VatLineChart label="Milk Volume" unit="L" yTitle="Litres" {...span} series={[{ label: 'Milk Volume', data: seriesOf(data.detailData, 'milk_volume'), colour: '#1d4f91' }]} />
      <h2 className="milk-quality__chart-title">Temperatures</h2>
      <VatLineChart
        label="Temperatures"
        unit="°C"
        yTitle="Temperatures"
        {...span}
        series={[
          { label: 'Vat', data: seriesOf(data.detailData, 'temp1'), colour: '#1d4f91' },
          { label: 'Inlet', data: seriesOf(data.detailData, 'temp2'), colour: '#2e6b31' },
          { label: 'Plate', data: seriesOf(data.detailData, 'temp3'), colour: '#c98a00' },
          { label: 'Ambient', data: seriesOf(data.detailData, 'temp4'), colour: '#5b6775' },
          { label: 'CIP', data: seriesOf(data.detailData, 'temp5'), colour: '#8e44ad' },
          { label: 'Milk In', data: coolerSeries(data, 'milk_in'), colour: '#0f7c8c' },
          { label: 'Water In', data: coolerSeries(data, 'water_in'), colour: '#6d8fd0' },
        ]}
      />
      <h2 className="milk-quality__chart-title">Quality Estimates</h2>
      <VatLineChart
        label="Quality Estimates"
        unit="quality"
        yTitle="Colony estimate"
        yMin={QUALITY_MIN}
        {...span}
        series={[
          { label: 'currentEstCFU', data: qualitySeries(data, 'currentEstCFU'), colour: '#1d4f91' },
          { label: 'pickupEstCFU', data: qualitySeries(data, 'pickupEstCFU'), colour: '#8e44ad' },
          ...QUALITY_BANDS.map((b) => ({ label: `${b.label} ≤ ${b.upTo}`, data: referenceLine(b.upTo, from, to), colour: b.colour, reference: true })),
        ]}
      />
      <p className="milk-quality__note">
        Quality bands: Excellent up to 4.3, Low risk up to 4.7, Medium risk up to 5, High risk up to 6, above that Do not collect.
      </p>
    </div>
  );
}
