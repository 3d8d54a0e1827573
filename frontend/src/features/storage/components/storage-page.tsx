import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useOutletContext, useParams } from 'react-router-dom';
import type { Farm } from '@shared/entities/farm';
import { useApiClient } from '../../../lib/api-client-provider';
import { ApiError } from '../../../lib/api-error';
import { formatAgitator, formatTemperature, formatVolume, typeLabel } from '../../../lib/format';
import { formatWhen } from '../../../lib/time-format';
import { storageOneQuery, type StorageOne } from '../api/storage';
import { alertDescription } from '../utils/format';
import '../../../components/charts/charts.css';
import './storage.css';

// chart.js is most of this screen's weight: the heading and the alert come first.
const StorageCharts = lazy(() => import('./storage-charts').then((m) => ({ default: m.StorageCharts })));

/** What the storage pages read from the shell's outlet context (its contract, not its code). */
export interface StorageContext {
  readonly farm: Pick<Farm, '_id' | 'package' | 'timezone' | 'fonterra_id'> | undefined;
  readonly farms: readonly Pick<Farm, '_id'>[];
  readonly selectFarm: (farmId: string) => void;
}

const problemText = (error: unknown): string =>
  error instanceof ApiError && error.status === 403
    ? 'This storage is not one of your farms’.'
    : error instanceof ApiError && typeof error.userMessage === 'string'
      ? error.userMessage
      : 'The storage could not be loaded.';

/** farmer §2.7's red box: the alert type and what it means, with the reading that raised it. */
function AlertBox({ alert, timeZone }: { readonly alert: NonNullable<StorageOne['alert']>; readonly timeZone: string | undefined }) {
  const data = alert.data as { published_at?: unknown; temp1?: unknown; milk_volume?: unknown; agitator_status?: unknown };
  const description = alertDescription(alert.type);
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const agitator = data.agitator_status === 0 || data.agitator_status === 1 ? data.agitator_status : null;
  return (
    <div className="storage-alert" role="alert">
      <p className="storage-alert__title">{typeLabel(alert.type)}</p>
      {description && <p className="storage-alert__description">{description}</p>}
      <p className="storage-alert__facts">
        {typeof data.published_at === 'string' ? formatWhen(data.published_at, timeZone) : formatWhen(alert.created_at, timeZone)} · {formatTemperature(num(data.temp1))} ·{' '}
        {formatVolume(num(data.milk_volume))} · Agitator {formatAgitator(agitator)}
      </p>
    </div>
  );
}

/**
 * /dts/storage/{activity_id}/alert/{alert_id} (farmer §2.7). A storage of another of the user's
 * farms switches the selected farm to it and reloads, so the tabs and the rest agree with it.
 */
export function StoragePage() {
  const { activityId = '', alertId } = useParams();
  const { farm, farms, selectFarm } = useOutletContext<StorageContext>();
  const client = useApiClient();
  const { data, error, isPending } = useQuery(storageOneQuery(client, activityId, alertId));
  const [now] = useState(() => Date.now());
  const otherFarm = data && farm && data.farm_id !== farm._id && farms.some((f) => f._id === data.farm_id) ? data.farm_id : undefined;

  useEffect(() => {
    if (otherFarm) selectFarm(otherFarm);
  }, [otherFarm, selectFarm]);

  if (isPending) return <p className="page__note">Loading the storage…</p>;
  if (error || !data) {
    return (
      <section className="page storage-page">
        <h1 className="page__title">Milk storage</h1>
        <p className="page__note" role="alert">
          {problemText(error)}
        </p>
      </section>
    );
  }
  if (otherFarm) return <p className="page__note">Switching to this storage’s farm…</p>;

  const { activity } = data.activity;
  const timeZone = farm?.timezone;
  return (
    <section className="page storage-page">
      <h1 className="page__title">Vat {data.device.vat_number}</h1>
      <p className="page__note">
        {`In storage from ${formatWhen(activity.start.published_at, timeZone)}${activity.end ? ` to ${formatWhen(activity.end.published_at, timeZone)}` : ' (still in the vat)'}`}
      </p>
      {data.alert && <AlertBox alert={data.alert} timeZone={timeZone} />}
      <section className="card storage-page__card" aria-labelledby="storage-data-title">
        <h2 className="card__title" id="storage-data-title">
          Milk storage data
        </h2>
        <p className="vat-charts__legend">
          <span className="vat-charts__key">
            <span className="vat-charts__swatch vat-charts__swatch--stop" /> Agitator Stopped
          </span>
        </p>
        {data.detailData.length === 0 ? (
          <p className="page__note">No readings in this storage.</p>
        ) : (
          <Suspense fallback={<p className="page__note">Loading charts…</p>}>
            <StorageCharts storage={data} rangeEnd={now} timeZone={timeZone} />
          </Suspense>
        )}
      </section>
    </section>
  );
}
