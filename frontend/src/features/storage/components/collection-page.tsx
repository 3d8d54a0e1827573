import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useConfirm } from '../../../components/confirm-dialog';
import { useApiClient } from '../../../lib/api-client-provider';
import { formatTemperature, formatVolume } from '../../../lib/format';
import { formatWhen } from '../../../lib/time-format';
import { collectionListQuery, deletePickup, pickupListQuery, type CollectionList } from '../api/storage';
import { formatDuration } from '../utils/format';
import type { ActivityRow } from './activity-list';
import { PagedVatLists } from './paged-vat-lists';

/** Farmer §5: a delete needs this confirmation. */
const DELETE_CONFIRMATION = 'Are you sure you want to delete it?';

/**
 * The pickups entered on /dts/pickup for the page's 30 days, as rows of their vat's card: marked as
 * entered by hand, with Delete for the person who entered them (after the §5 confirmation).
 */
function usePickupRows(farmId: string, page: number, timeZone: string): { vat: number; row: ActivityRow }[] {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const { data } = useQuery({ ...pickupListQuery(client, farmId, page), enabled: farmId !== '' });
  const remove = useMutation({
    mutationFn: (pickup: { vat: number; datetime: string }) => deletePickup(client, farmId, pickup),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['farmer-pickup-list', farmId] }),
  });
  return (data?.list ?? []).map((p) => {
    const when = formatWhen(p.datetime, timeZone);
    return {
      vat: p.vat,
      row: {
        key: `pickup-${p.vat}-${p.datetime}`,
        at: p.datetime,
        facts: [
          ['Submitted pickup', when],
          ['Volume', formatVolume(p.volume)],
          ['Temperature', formatTemperature(p.temperature)],
          ['Entered by', p.mine ? 'You' : 'Another user of the farm'],
        ],
        ...(p.mine && {
          action: (
            <button
              type="button"
              className="button button--text"
              disabled={remove.isPending}
              aria-label={`Delete the pickup of Vat ${p.vat} at ${when}`}
              onClick={() => confirm({ title: 'Delete pickup', body: DELETE_CONFIRMATION, onOk: () => remove.mutate(p), onCancel: () => undefined })}
            >
              Delete
            </button>
          ),
        }),
      },
    };
  });
}

const TANKER_SOURCE = { docket: 'docket', pickup: 'entered pickup' } as const;
const signed = (n: number, text: string) => (n > 0 ? `+${text}` : n < 0 ? `\u2212${text.replace(/^-/, '')}` : text);
/** The litres as measured (the §9 volume format rounds to 10 L, too coarse for a difference). */

/** Dockets against the vat: the tanker's figure and the vat's drop minus it, in L and %. */
const tankerFacts = (c: CollectionList['list'][number]): [string, string][] =>
  c.tanker
    ? [
        ['Tanker', `${formatVolume(c.tanker.volume)} (${TANKER_SOURCE[c.tanker.source]})`],
        [
          'Vat against tanker',
          c.difference_l === null ? 'No vat volume' : `${signed(c.difference_l, `${Math.abs(c.difference_l).toLocaleString('en-NZ')} L`)}${c.difference_percent === null ? '' : ` (${signed(c.difference_percent, `${c.difference_percent.toFixed(1)} %`)})`}`,
        ],
      ]
    : [['Tanker', 'No docket or pickup entered']];

/**
 * /dts/collection (farmer §2.6): the collections the vat monitor detected, per vat, newest first, in
 * the farm's local time, and beside them the pickups the farm entered on Submit Pickup.
 */
export function CollectionPage() {
  return (
    <PagedVatLists
      title="Collections"
      listQuery={collectionListQuery}
      empty="No collections in these days."
      useMoreRows={usePickupRows}
      rowOf={(c, tz) => ({
        key: c._id,
        at: c.activity.start.published_at,
        facts: [
          ['Started', formatWhen(c.activity.start.published_at, tz)],
          ['Duration', c.activity.end ? formatDuration(c.duration_min) : 'Still collecting'],
          ['Volume collected', formatVolume(c.volume_collected)],
          ['Temperature', formatTemperature(c.activity.start.temp1)],
          ...(c.activity.end ? tankerFacts(c) : []),
        ],
      })}
    />
  );
}
