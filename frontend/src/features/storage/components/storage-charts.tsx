import { useState } from 'react';
import { VatLineChart, type ShadedBands, type XView } from '../../../components/charts/vat-line-chart';
import { bandsOf, milkingMarkers, seriesOf, temperatureLimitLines, temperatureSeries } from '../../../components/charts/chart-data';
import type { StorageOne } from '../api/storage';
import { ZoomControl } from '../../../components/charts/zoom-control';
import { FarmClockNote } from '../../../components/charts/farm-clock-note';

/** The milk dashboard's agitator-stop shade, so 'Agitator Stopped' reads the same on both screens. */
const AGITATOR_STOP = 'rgb(240 168 48 / 25%)';

/**
 * The storage charts of farmer §2.7 (loaded lazily: chart.js is large): volume with the agitator
 * stops shaded, and the seven §9 temperatures (the vat's shown, the others behind the legend) with
 * the 6 and 10 °C lines, over the storage's time, zooming together (§2.17), milking start and end marked (§4).
 */
export function StorageCharts({ storage, rangeEnd, timeZone }: { readonly storage: StorageOne; readonly rangeEnd: number; readonly timeZone: string | undefined }) {
  const [view, setView] = useState<XView>();
  const n = storage.device.vat_number;
  const from = Date.parse(storage.activity.activity.start.published_at);
  const to = Math.max(from + 60_000, storage.activity.activity.end ? Date.parse(storage.activity.activity.end.published_at) : rangeEnd);
  const stops: ShadedBands = { bands: bandsOf(storage.agitatorData.listStop, to), colour: AGITATOR_STOP };
  const span = { from, to, view, onView: setView, timeZone, markers: milkingMarkers(storage.phyStateData) };
  return (
    <>
      <FarmClockNote timeZone={timeZone} at={from} />
      <ZoomControl view={view} onReset={() => setView(undefined)} />
      <VatLineChart
        label={`Vat ${n} storage volume`}
        unit="L"
        yTitle="Litres"
        {...span}
        shaded={[stops]}
        series={[{ label: 'Milk Volume', data: seriesOf(storage.detailData, 'milk_volume'), colour: '#1d4f91' }]}
      />
      <VatLineChart
        label={`Vat ${n} storage temperatures`}
        unit="°C"
        yTitle="Temperatures"
        {...span}
        shaded={[stops]}
        series={[...temperatureSeries(storage.detailData, storage.coolerData), ...temperatureLimitLines(from, to)]}
      />
    </>
  );
}
