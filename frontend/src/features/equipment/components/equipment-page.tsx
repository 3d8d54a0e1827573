import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext } from 'react-router-dom';
import type { Farm } from '@shared/entities/farm';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatClock } from '../../../lib/time-format';
import { equipmentDataQuery, equipmentQuery } from '../api/equipment';
import { plantFromItems } from '../utils/plant';
import { useNarrow } from '../utils/use-narrow';
import { EquipmentDiagram } from './equipment-diagram';
import './equipment.css';

/** What the equipment screens read from the farm tabs' outlet context (the shell's contract, not its code). */
export interface EquipmentContext {
  readonly farm: Pick<Farm, '_id' | 'timezone'> | undefined;
}


/**
 * /dts/equipment (farmer §2.13, tab 2 of the farm tabs, menu Milk): the farm's cooling plant as a
 * diagram with the vats' live labels, refreshed every 120 s like the dashboard, and a settings
 * button to the builder.
 */
export function EquipmentPage() {
  const { farm } = useOutletContext<EquipmentContext>();
  const client = useApiClient();
  const narrow = useNarrow();
  const farmId = farm?._id ?? '';
  const items = useQuery({ ...equipmentQuery(client, farmId), enabled: farm !== undefined });
  const live = useQuery({ ...equipmentDataQuery(client, farmId), enabled: farm !== undefined });

  return (
    <section className="page equipment">
      <div className="equipment__heading">
        <h1 className="page__title">Equipment</h1>
        <Link className="button button--primary equipment__settings" to={paths.equipmentBuilder.to()}>
          <svg className="equipment__settings-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.4-2.5 1a7.6 7.6 0 0 0-1.7-1L15 3.3h-4l-.4 2.7a7.6 7.6 0 0 0-1.7 1l-2.5-1-2 3.4L6.6 11a7.5 7.5 0 0 0 0 2l-2.2 1.6 2 3.4 2.5-1a7.6 7.6 0 0 0 1.7 1l.4 2.7h4l.4-2.7a7.6 7.6 0 0 0 1.7-1l2.5 1 2-3.4zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z" transform="translate(-1 0)" />
          </svg>
          Equipment settings
        </Link>
      </div>
      {items.isPending && farm && <p className="page__note">Loading your equipment…</p>}
      {items.isError && !items.data && <p className="page__note">Your equipment could not be loaded. Open this page again shortly.</p>}
      {items.data && (
        <div className="card equipment__card">
          <EquipmentDiagram plant={plantFromItems(items.data)} live={live.data} narrow={narrow} />
          {plantFromItems(items.data).vats.length === 0 && <p className="page__note">This farm has no vats yet.</p>}
        </div>
      )}
      {items.data && (
        <p className="page__note equipment__note">
          {live.data ? `Live values as of ${formatClock(live.dataUpdatedAt, farm?.timezone)}; they refresh every 2 minutes.` : live.isError ? 'The live values could not be loaded; they will be asked for again shortly.' : 'Loading the live values…'}
        </p>
      )}
    </section>
  );
}
