import { tankerDifference, tankerFigureFor, tankerVerdict, type TankerFigure } from '../../shared/calibration/tanker';
import { withDefaults } from '../../shared/watchman/settings';
import type { Notification } from '../../shared/alerts/types';
import type { Device } from '../../shared/entities/device';
import { isDairyCompanyFarm, type Farm } from '../../shared/entities/farm';
import type { AlertsRepository } from '../ports/alerts';
import type { DairyRepository } from '../ports/dairy';
import type { PickupRepository } from '../ports/pickups';
import type { ReadingsRepository } from '../ports/readings';
import type { WatchmanRepository } from '../ports/watchman';
import { alertId } from './processor';

const DAY = 86_400_000;
/** The code of 'Vat reading differs from tanker' (701 is the spec's collection duration). */
export const TANKER_ALERT_TYPE = 702;
/** How far back collections are read for the alert: 5 collections of a vat picked up every 1–3 days, with room. */
const ALERT_LOOKBACK_DAYS = 60;

interface TankerDeps {
  readonly readings: Pick<ReadingsRepository, 'listActivities'>;
  /** A dairy-company farm's dockets (its tanker figures). */
  readonly dairy?: Pick<DairyRepository, 'listDockets'>;
  /** Any other farm's pickups entered by its farmers. */
  readonly pickups?: Pick<PickupRepository, 'listPickups'>;
  /** Watchman's saved 'Matching pickup (minutes)' (savedMatchingMinutes), as calibration's COLLECTIONS takes it. */
  readonly matchingMinutes: number;
}

/** Watchman's saved 'Matching pickup (minutes)', its default until an operator saves one: read once per check or run. */
export const savedMatchingMinutes = async (watchman: Pick<WatchmanRepository, 'getSettings'>): Promise<number> => withDefaults(await watchman.getSettings()).matching_pickup_minutes;

interface CollectionAgainstTanker {
  readonly start: string;
  readonly end: string;
  /** Litres that left the vat: its volume before minus after. */
  readonly vat_drop: number;
  readonly tanker: TankerFigure | null;
  readonly difference_l: number | null;
  readonly difference_percent: number | null;
}

/**
 * A vat's finished collections of [from, to], newest first, each with the vat's drop beside the
 * tanker's figure (the docket on a dairy-company farm, the farmer's entered pickup elsewhere, as
 * calibration takes them) and the difference.
 */
const collectionsAgainstTanker = async (deps: TankerDeps, farm: Farm, device: Device, from: string, to: string): Promise<CollectionAgainstTanker[]> => {
  const company = isDairyCompanyFarm(farm.fonterra_id);
  const need = company ? deps.dairy : deps.pickups;
  if (!need) throw new Error(`tanker figures of ${farm._id}: no ${company ? 'dockets' : 'pickups'} port`);
  const [collections, dockets, pickups] = await Promise.all([
    deps.readings.listActivities(device._id, from, to, ['collection']),
    company && deps.dairy ? deps.dairy.listDockets(farm._id, device.vat_number) : Promise.resolve([]),
    !company && deps.pickups ? deps.pickups.listPickups(farm._id).then((ps) => ps.filter((p) => p.vat === device.vat_number)) : Promise.resolve([]),
  ]);
  return collections
    .flatMap((c) => (c.end && c.start.milk_volume !== null && c.end.milk_volume !== null ? [{ start: c.start.published_at, end: c.end.published_at, vat_drop: c.start.milk_volume - c.end.milk_volume }] : []))
    .sort((a, b) => b.start.localeCompare(a.start))
    .map((c) => {
      const tanker = tankerFigureFor(c, dockets, pickups, deps.matchingMinutes);
      const diff = tanker ? tankerDifference(c.vat_drop, tanker.volume) : null;
      return { ...c, tanker, difference_l: diff?.litres ?? null, difference_percent: diff?.percent ?? null };
    });
};

interface TankerAlertDeps extends TankerDeps {
  readonly alerts: Pick<AlertsRepository, 'raise' | 'clearOpen'>;
  readonly now: () => Date;
}

/**
 * Alert 702 for one vat: raised (farmer-visible, its own preference row) when the median difference
 * of the last 5 collections with a tanker figure is beyond 3 %, once: the open-condition item keeps
 * it from being raised again until the median is back within 2.5 % and it clears. The
 * notification's id is the newest of those collections, so a run repeated after a crash writes
 * the same alert. The alert sweep delivers it (it plans every notification still pending).
 * Called when a tanker figure or a collection may have come in: the dairy sync after fetching
 * dockets, and ADD_PICKUP / DELETE_PICKUP.
 */
export const checkTankerDifference = async (deps: TankerAlertDeps, farm: Farm, device: Device): Promise<'raised' | 'open' | 'cleared' | 'none'> => {
  const now = deps.now();
  const rows = (await collectionsAgainstTanker(deps, farm, device, new Date(now.getTime() - ALERT_LOOKBACK_DAYS * DAY).toISOString(), now.toISOString())).filter(
    (r): r is CollectionAgainstTanker & { difference_percent: number; tanker: TankerFigure } => r.difference_percent !== null && r.tanker !== null,
  );
  const verdict = tankerVerdict(rows.map((r) => r.difference_percent));
  if (verdict.status === 'agrees') {
    await deps.alerts.clearOpen(farm._id, device._id, TANKER_ALERT_TYPE);
    return 'cleared';
  }
  if (verdict.status !== 'differs') return 'none';
  const newest = rows[0] as (typeof rows)[number];
  const n: Notification = {
    _id: alertId(device._id, TANKER_ALERT_TYPE, newest.end),
    farm_id: farm._id,
    type: TANKER_ALERT_TYPE,
    status: 1,
    data: { published_at: newest.end, temp1: null, milk_volume: newest.vat_drop, agitator_status: null },
    detail: `median ${verdict.median > 0 ? '+' : ''}${verdict.median.toFixed(1)} % over the last 5 collections (latest: vat ${Math.round(newest.vat_drop)} L, tanker ${Math.round(newest.tanker.volume)} L); ask for a vat calibration`,
    device: { _id: device._id, name: device.name, vat_number: device.vat_number },
    created_at: now.toISOString(),
  };
  return (await deps.alerts.raise(n, true)) === 'created' ? 'raised' : 'open';
};
