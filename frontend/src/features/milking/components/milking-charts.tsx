import { useState } from 'react';
import { temperatureLimitLines } from '../../../components/charts/chart-data';
import type { XView } from '../../../components/charts/vat-line-chart';
import type { MilkingList } from '../api/milking-list';
import { byVat, perMilking, scatterPoints } from '../utils/milking-view';
import { MilkingLineChart } from './milking-line-chart';
import { MilkingScatter, type ScatterSet } from './milking-scatter';
import { ZoomControl } from '../../../components/charts/zoom-control';
import { FarmClockNote } from '../../../components/charts/farm-clock-note';

/** One colour per vat on the comparison scatter (up to four vats a farm, operator §9). */
const VAT_COLOURS = ['#1d4f91', '#c26a00', '#2e6b31', '#8e44ad'] as const;

/**
 * The Milking tab's charts (farmer §2.6, §2.17): the comparison scatter, then per vat the litres
 * of each milking and its temperatures when it ended. Loaded lazily: chart.js is large.
 */
export function MilkingCharts({ data, timeZone }: { readonly data: MilkingList; readonly timeZone: string | undefined }) {
  // One zoom for the vat charts of the screen (§2.17); a new page starts zoomed out (the section is keyed by page).
  const [view, setView] = useState<XView>();
  // A little room either side, so a milking at the very start or end of the range is a whole dot.
  const pad = (Date.parse(data.range.to) - Date.parse(data.range.from)) * 0.02;
  const from = Date.parse(data.range.from) - pad;
  const to = Date.parse(data.range.to) + pad;
  const vats = byVat(data.list);
  const sets: ScatterSet[] = vats.map((v, i) => ({ label: `Vat ${v.vatNumber}`, colour: VAT_COLOURS[i % VAT_COLOURS.length] ?? '#1d4f91', points: scatterPoints(v.milkings) }));
  const span = { from, to, view, onView: setView, timeZone };
  return (
    <>
      <section className="card milking-card" aria-labelledby="milking-comparison-title">
        <h2 className="card__title" id="milking-comparison-title">
          Milking volume comparison
        </h2>
        <p className="page__note">Litres of each milking. Click a point to open that milking.</p>
        <MilkingScatter label="Milking volume comparison" sets={sets} from={from} to={to} timeZone={timeZone} />
      </section>
      <FarmClockNote timeZone={timeZone} />
      <ZoomControl view={view} onReset={() => setView(undefined)} className="milking__reset" />
      {vats.map((v) => (
        <section key={v.vatNumber} className="card milking-card" aria-label={`Vat ${v.vatNumber} milkings`}>
          <h2 className="card__title">Vat {v.vatNumber}</h2>
          <MilkingLineChart
            label={`Vat ${v.vatNumber} milking volume`}
            unit="L"
            yTitle="Litres"
            {...span}
            series={[
              { label: 'Milk Volume', data: perMilking(v.milkings, (m) => m.activity.end?.milk_volume), colour: '#1d4f91' },
              { label: 'Milked', data: perMilking(v.milkings, (m) => m.summary.productivity_l), colour: '#c26a00' },
            ]}
          />
          <MilkingLineChart
            label={`Vat ${v.vatNumber} milking temperatures`}
            unit="°C"
            yTitle="Temperatures"
            {...span}
            series={[
              { label: 'Vat', data: perMilking(v.milkings, (m) => m.activity.end?.temp1), colour: '#1d4f91' },
              { label: 'Inlet', data: perMilking(v.milkings, (m) => m.activity.end?.temp2), colour: '#b26a00' },
              { label: 'Plate', data: perMilking(v.milkings, (m) => m.activity.end?.temp3), colour: '#00838f' },
              ...temperatureLimitLines(from, to),
            ]}
          />
          <p className="page__note">Each point is one milking, at its start: the vat volume and temperatures when it ended, and the litres it added.</p>
        </section>
      ))}
    </>
  );
}
