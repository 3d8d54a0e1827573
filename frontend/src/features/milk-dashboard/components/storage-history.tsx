import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Farm } from '@shared/entities/farm';
import { useApiClient } from '../../../lib/api-client-provider';
import { storageHistoryQuery, type VatStorageHistory } from '../../../lib/queries/storage-history';
import { milkingMarkers, seriesOf, temperatureSeries, type Band } from '../../../components/charts/chart-data';
import { VatLineChart } from '../../../components/charts/vat-line-chart';

/** Phones skip the history call (farmer §2.5): the same width at which the cards stack. */
const NARROW_QUERY = '(max-width: 719px)';
const isNarrow = (): boolean => window.matchMedia?.(NARROW_QUERY).matches ?? false;

const STORAGE = 'rgb(29 79 145 / 10%)';

const storageBands = (h: VatStorageHistory, rangeEnd: number): (Band & { readonly id: string })[] =>
  h.storages.flatMap((s) => {
    const from = Date.parse(s.activity.start.published_at);
    const to = s.activity.end ? Date.parse(s.activity.end.published_at) : rangeEnd;
    return Number.isNaN(from) || Number.isNaN(to) || to < from ? [] : [{ from, to, id: s._id }];
  });

function VatHistory({ history, timeZone }: { readonly history: VatStorageHistory; readonly timeZone: string | undefined }) {
  const n = history.device.vat_number;
  const from = Date.parse(history.from);
  const to = Date.parse(history.to);
  const bands = storageBands(history, to);
  const shaded = [{ bands, colour: STORAGE }];
  const markers = milkingMarkers(history.phyStateData);
  const navigate = useNavigate();
  // Clicking a storage's shaded area opens that storage (farmer §2.7).
  const onPick = (x: number) => {
    const hit = bands.find((b) => x >= b.from && x <= b.to);
    if (hit) void navigate(paths.storage.to(hit.id));
  };
  return (
    <div className="storage-history__vat">
      <h3 className="storage-history__vat-title">Vat {n}</h3>
      <VatLineChart
        label={`Vat ${n} storage volume`}
        unit="L"
        yTitle="Litres"
        from={from}
        to={to}
        shaded={shaded}
        onPick={onPick}
        timeZone={timeZone}
        markers={markers}
        series={[{ label: 'Milk Volume', data: seriesOf(history.detailData, 'milk_volume'), colour: '#1d4f91' }]}
      />
      <VatLineChart
        label={`Vat ${n} storage temperatures`}
        unit="°C"
        yTitle="Temperatures"
        from={from}
        to={to}
        shaded={shaded}
        onPick={onPick}
        timeZone={timeZone}
        markers={markers}
        series={temperatureSeries(history.detailData, history.coolerData)}
      />
    </div>
  );
}

/** The 'Milk storage history' card (farmer §2.5): the last 7 days per vat, storages shaded; not loaded on phones. */
export function StorageHistory({ farm }: { readonly farm: Pick<Farm, '_id' | 'timezone'> }) {
  const client = useApiClient();
  const [narrow] = useState(isNarrow);
  const { data } = useQuery({ ...storageHistoryQuery(client, farm._id), enabled: !narrow });
  if (narrow || !data || data.length === 0) return null;
  return (
    <section className="card vat-charts storage-history" aria-labelledby="storage-history-title">
      <h2 className="card__title vat-charts__title" id="storage-history-title">
        Milk storage history
      </h2>
      <p className="vat-charts__legend">The last 7 days; shaded: milk in storage (click one to open it).</p>
      {data.map((h) => (
        <VatHistory key={h.device._id} history={h} timeZone={farm.timezone} />
      ))}
    </section>
  );
}
