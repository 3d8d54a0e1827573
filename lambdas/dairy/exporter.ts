import type { DairyGatewayClient } from '../ports/dairy';
import { attemptCountOf, GatewayUnavailableError } from '../ports/dairy';
import type { DairyEvent, DairyRepository } from '../ports/dairy';
import type { AlertsRepository } from '../ports/alerts';
import type { FarmRepository } from '../ports/farms';
import type { ReadingsRepository } from '../ports/readings';
import type { WatchmanRepository } from '../ports/watchman';
import { collectionEventOf, milkingEventOf, vatExceptionOf } from '../../shared/dairy-company/events';
import { gatewayJson, type DairyEventKind } from '../../shared/dairy-company/payloads';
import { isDairyCompanyFarm, type Farm } from '../../shared/entities/farm';
import type { Logger } from '../lib/logger';
import { metricFields } from '../lib/metrics';
import { DAIRY_EVENTS_REFUSED, DAIRY_TOKEN_REFUSED } from '../ports/metric-names';
import { checkTankerDifference, savedMatchingMinutes } from '../alerts/tanker-check';

const MIN = 60_000;
/** How far back each run looks for activities and exceptions (a run missed for a day still finds them). */
const LOOKBACK_MS = 3 * 24 * 60 * MIN;
/** Dockets are fetched for the last week (the calibration's recent collections). */
const DOCKET_LOOKBACK_MS = 7 * 24 * 60 * MIN;
/** Retries back off 30 s, 1, 2, 4 minutes, then every 5 minutes until the gateway answers. */
const retryDelayMs = (attempts: number): number => Math.min(5 * MIN, 30_000 * 2 ** Math.max(0, attempts - 1));

export interface ExporterDeps {
  readonly farms: Pick<FarmRepository, 'listFarms' | 'listDevicesOfFarm'>;
  readonly readings: Pick<ReadingsRepository, 'listActivities'>;
  /** Exceptions to send (list); alert 702 after the dockets (raise, clearOpen). */
  readonly alerts: Pick<AlertsRepository, 'list' | 'raise' | 'clearOpen'>;
  readonly dairy: DairyRepository;
  /** Watchman's saved matching pickup minutes, for alert 702's docket match. */
  readonly watchman: Pick<WatchmanRepository, 'getSettings'>;
  readonly gateway: DairyGatewayClient;
  readonly now: () => Date;
  readonly log: Logger;
}

/** Farms whose events go to the company: its farms (5 digits or FON…) with the dairy-company API status on. */
const isSynced = (f: Farm): boolean => f.fonterra_api_status && isDairyCompanyFarm(f.fonterra_id);

const eventKey = (farmId: string, vat: number, kind: DairyEventKind, at: string) => `vatman:${farmId}:${vat}:${kind}:${at}`;

/**
 * The dairy-company exporter, run every minute by the schedule. Three steps, each safe
 * to repeat and to run twice at once:
 *  1. queue: every finished milking and collection of the synced farms' vats, and every exception
 *     notification (1001-1004, 1201), becomes one queued event (conditional put on its key);
 *  2. send: each due event is posted with its idempotency key; a 2xx marks it sent, a 4xx refused
 *     (the gateway's word on the event, kept for the log until an operator sends it again); no
 *     answer, a 5xx or an answer that is not about the event (401/403 with the token read again,
 *     408, 409, 429) leaves it pending with a backoff;
 *  3. dockets: the company's tanker dockets of the last week are fetched and stored per vat, and
 *     each vat's collections are held against them (alert 702, lambdas/alerts/tanker-check.ts).
 * The queue is the Farms table's pending index, not SQS: an event must be kept with its attempts
 * for the farmer's log anyway, and dynalite stands in for it locally.
 */
export const makeDairyExporter = (d: ExporterDeps) => {
  const queue = async (farm: Farm): Promise<number> => {
    const now = d.now();
    const from = new Date(now.getTime() - LOOKBACK_MS).toISOString();
    const to = now.toISOString();
    const devices = (await d.farms.listDevicesOfFarm(farm._id)).filter((v) => v.status === 1);
    const events: DairyEvent[] = [];
    const make = (vat: number, kind: DairyEventKind, at: string, payload: unknown): DairyEvent => ({
      key: eventKey(farm._id, vat, kind, at),
      farm_id: farm._id,
      supplier_id: farm.fonterra_id,
      vat,
      kind,
      event_at: at,
      payload: gatewayJson(payload),
      state: 'pending',
      next_at: to,
      attempts: [],
    });
    for (const device of devices) {
      const acts = await d.readings.listActivities(device._id, from, to, ['milking', 'collection']);
      const milkings = acts.filter((a) => a.kind === 'milking');
      for (const a of acts) {
        if (!a.end) continue;
        if (a.kind === 'milking') events.push(make(device.vat_number, 'milkingevent', a.start.published_at, milkingEventOf(device.vat_number, a)));
        else {
          const start = a.start.published_at;
          const end = a.end.published_at;
          const during = milkings.some((m) => m.start.published_at <= end && (m.end?.published_at ?? to) >= start);
          events.push(make(device.vat_number, 'collectionevent', start, collectionEventOf(device.vat_number, a, during)));
        }
      }
    }
    for (const n of await d.alerts.list(farm._id)) {
      if (n.created_at < from) continue;
      const exception = vatExceptionOf(n.device.vat_number, n);
      if (exception) events.push(make(n.device.vat_number, 'vatexceptions', n.data.published_at, exception));
    }
    let created = 0;
    for (const e of events) if ((await d.dairy.addEvent(e)) === 'created') created += 1;
    return created;
  };

  const send = async (e: DairyEvent): Promise<'sent' | 'refused' | 'retry'> => {
    const at = d.now().toISOString();
    try {
      const { status, answer } = await d.gateway.send(e.kind, e.supplier_id, e.payload, e.key);
      const state = status >= 200 && status < 300 ? 'sent' : 'refused';
      await d.dairy.recordAttempt(e, { at, status, message: answer.message }, { state });
      // An operator must hear of it (the DairyEventsRefused alarm) and can send it again (DAIRY_EVENT_RESEND, npm run dairy-resend).
      if (state === 'refused') d.log.warn('dairy gateway refused an event', { farm: e.farm_id, key: e.key, status, message: answer.message, ...metricFields(DAIRY_EVENTS_REFUSED, 1, d.now()) });
      return state;
    } catch (err) {
      if (!(err instanceof GatewayUnavailableError)) throw err;
      const next = new Date(d.now().getTime() + retryDelayMs(attemptCountOf(e) + 1)).toISOString();
      await d.dairy.recordAttempt(e, { at, status: err.status, message: err.message }, { state: 'pending', next_at: next });
      // A refused token holds every event back until the parameter holds one the gateway takes.
      if (err.status === 401 || err.status === 403) d.log.warn('dairy gateway refused the token', { farm: e.farm_id, status: err.status, ...metricFields(DAIRY_TOKEN_REFUSED, 1, d.now()) });
      return 'retry';
    }
  };

  const fetchDockets = async (farm: Farm, matchingMinutes: number): Promise<number> => {
    const now = d.now();
    const { dockets, refused } = await d.gateway.dockets(farm.fonterra_id, new Date(now.getTime() - DOCKET_LOOKBACK_MS).toISOString().slice(0, 19), now.toISOString().slice(0, 19) + 'Z');
    // A docket that fails the checks is not stored (its time is part of its key): the log keeps it for the company.
    for (const r of refused) d.log.warn('dairy docket refused', { farm: farm._id, ...r });
    for (const docket of dockets) await d.dairy.putDocket({ ...docket, farm_id: farm._id });
    // Every run, not only on a new docket: a collection detected after its docket arrived counts too.
    for (const device of (await d.farms.listDevicesOfFarm(farm._id)).filter((v) => v.status === 1)) {
      const outcome = await checkTankerDifference({ readings: d.readings, dairy: d.dairy, alerts: d.alerts, matchingMinutes, now: d.now }, farm, device);
      if (outcome === 'raised') d.log.info('vat reading differs from tanker', { farm: farm._id, vat: device.vat_number });
    }
    return dockets.length;
  };

  return {
    async run(): Promise<{ queued: number; sent: number; refused: number; retrying: number; dockets: number }> {
      const farms = (await d.farms.listFarms()).filter(isSynced);
      let queued = 0;
      for (const farm of farms) queued += await queue(farm);
      const result = { queued, sent: 0, refused: 0, retrying: 0, dockets: 0 };
      const down = new Set<string>();
      for (const e of await d.dairy.listDue(d.now().toISOString())) {
        // One unanswered try per run is enough to know the gateway is down: the rest wait their turn.
        if (down.has(e.supplier_id)) continue;
        const outcome = await send(e);
        if (outcome === 'sent') result.sent += 1;
        else if (outcome === 'refused') result.refused += 1;
        else {
          result.retrying += 1;
          down.add(e.supplier_id);
        }
      }
      // Watchman's matching window once a run, not once a vat.
      const matchingMinutes = farms.length ? await savedMatchingMinutes(d.watchman) : 0;
      for (const farm of farms) {
        try {
          result.dockets += await fetchDockets(farm, matchingMinutes);
        } catch (err) {
          d.log.warn('dairy dockets not fetched', { farm: farm._id, err });
        }
      }
      return result;
    },
  };
};
