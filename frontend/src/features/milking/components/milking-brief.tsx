import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../../lib/api-client-provider';
import { milkingBriefQuery } from '../api/milking-brief';
import { briefPoints } from '../utils/milking-view';
import { MilkingScatter } from './milking-scatter';

const DAY = 86_400_000;
/** FARMER_MILKING_LIST_BRIEF's window: 15 days either side of the milking. */
const BRIEF_DAYS = 15;

/**
 * The milking among the vat's others (farmer §2.6, §7 FARMER_MILKING_LIST_BRIEF): litres per
 * milking 15 days either side, this one larger and red; a click opens another. Loaded lazily with chart.js.
 */
interface MilkingBriefCardProps {
  readonly activityId: string;
  readonly start: string;
  readonly vatNumber: number;
  /** The farm's zone (§9). */
  readonly timeZone: string | undefined;
}

export function MilkingBriefCard({ activityId, start, vatNumber, timeZone }: MilkingBriefCardProps) {
  const client = useApiClient();
  const { data, isError } = useQuery(milkingBriefQuery(client, activityId));
  const t = Date.parse(start);
  const { others, current } = briefPoints(data?.list ?? [], activityId);
  return (
    <section className="card milking-card" aria-labelledby="milking-brief-title">
      <h2 className="card__title" id="milking-brief-title">
        Vat {vatNumber} milkings
      </h2>
      <p className="page__note">Litres of each milking 15 days either side of this one. Click a point to open that milking.</p>
      {isError && <p className="page__note">The other milkings could not be loaded.</p>}
      {data && (
        <MilkingScatter
          label={`Vat ${vatNumber} milkings`}
          sets={[
            { label: `Vat ${vatNumber}`, colour: '#1d4f91', points: others },
            { label: 'This milking', colour: '#c62828', points: current, radius: 7 },
          ]}
          from={t - BRIEF_DAYS * DAY}
          to={t + BRIEF_DAYS * DAY}
          timeZone={timeZone}
        />
      )}
    </section>
  );
}
