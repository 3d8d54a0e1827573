import { farmerLogFonterraContracts as contracts, type DairyReport } from '../../shared/api/actions/farmer-log-fonterra';
import { attemptCountOf, type DairyEvent } from '../ports/dairy';
import { serve, type ServedAction } from '../lib/dispatch';

const reportOf = (e: DairyEvent): DairyReport => ({
  key: e.key,
  kind: e.kind,
  event_at: e.event_at,
  state: e.state,
  // The exporter wrote it from one of the payload schemas (gatewayJson); answer checks parse it under the tests.
  request: JSON.parse(e.payload) as DairyReport['request'],
  attempts: [...e.attempts],
  attempt_count: attemptCountOf(e),
});
const lastOf = (events: readonly DairyEvent[], kind: DairyEvent['kind']): DairyReport[] => {
  const last = events.filter((e) => e.kind === kind).sort((a, b) => a.event_at.localeCompare(b.event_at)).at(-1);
  return last ? [reportOf(last)] : [];
};

/** /api/farmer/log/fonterra (farmer §2.15, §7): per vat the last milking, collection and exception report. */
export const farmerLogFonterraHandlers: readonly ServedAction[] = [
  serve(contracts.FARMER_LOG_FONTERRA, ['farms', 'dairy'], async (_input, { farm, deps }) => {
    const [devices, events] = await Promise.all([deps.farms.listDevicesOfFarm(farm._id), deps.dairy.listEvents(farm._id)]);
    return devices
      .filter((d) => d.status === 1)
      .map((d) => {
        const mine = events.filter((e) => e.vat === d.vat_number);
        return { vat: d.vat_number, activity: [...lastOf(mine, 'milkingevent'), ...lastOf(mine, 'collectionevent')], alert: lastOf(mine, 'vatexceptions') };
      });
  }),
  serve(contracts.DAIRY_EVENT_RESEND, ['dairyWrite', 'now'], async ({ farm, key }, { caller, deps, log }) => {
    const requeued = await deps.dairyWrite.requeueRefused(farm, deps.now().toISOString(), key || undefined);
    log.info('dairy events queued again', { farm, requeued: requeued.length, by: caller.userId });
    return { requeued };
  }),
];
