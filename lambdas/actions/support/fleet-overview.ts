import { DEFAULT_TIME_ZONE } from '../../../shared/api/actions/installer';
import {
  ALERT_FARMS_SHOWN,
  ALERT_WINDOW_HOURS,
  INGEST_PROBLEMS_PAGE,
  REJECTED_DAYS_KEPT,
  REJECTED_PAYLOAD_SHOWN,
  operatorFleetContracts as contracts,
  SEARCH_PAGE,
  SILENT_AFTER_MS,
  SILENT_SHOWN,
  SMS_PRICE_USD,
  SMS_SPEND_ALARM_USD,
  type SearchHit,
  type SearchKind,
} from '../../../shared/api/actions/operator-fleet';
import type { Device } from '../../../shared/entities/device';
import type { Farm } from '../../../shared/entities/farm';
import { addDays, localDayOf, localMidnight, localMonth } from '../../../shared/time/local-day';
import { serve, type ServedAction } from '../../lib/dispatch';
import { ValidationError } from '../../lib/errors';
import type { Ports } from '../../ports/action-ports';
import type { LookupPage } from '../../ports/fleet';

const HOUR = 3_600_000;
const utcHour = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** Monday 00:00 of this week on the fleet's clock (New Zealand, where the farms are). */
const weekStart = (now: number): string => {
  const today = localDayOf(now, DEFAULT_TIME_ZONE);
  const weekday = (new Date(`${today}T00:00:00.000Z`).getUTCDay() + 6) % 7;
  return new Date(localMidnight(addDays(today, -weekday), DEFAULT_TIME_ZONE)).toISOString();
};

const farmsById = async (farms: Ports['farms'], ids: Iterable<string>): Promise<Map<string, Farm>> => {
  const list = [...new Set(ids)].filter(Boolean);
  return new Map((list.length ? await farms.getFarms(list) : []).map((f) => [f._id, f]));
};

/** Alerts of the last hours by type: counts summed over the hour counters, the farms named up to ALERT_FARMS_SHOWN. */
const alertsByType = async (deps: Pick<Ports, 'fleetStats' | 'farms'>, now: number) => {
  const hours = await deps.fleetStats.alertHours(utcHour(now - (ALERT_WINDOW_HOURS - 1) * HOUR));
  const counts = new Map<number, number>();
  const farmIds = new Map<number, Set<string>>();
  for (const h of hours) {
    for (const [type, n] of h.counts) counts.set(type, (counts.get(type) ?? 0) + n);
    for (const [type, ids] of h.farms) {
      const set = farmIds.get(type) ?? new Set<string>();
      for (const id of ids) if (set.size < ALERT_FARMS_SHOWN) set.add(id);
      farmIds.set(type, set);
    }
  }
  const named = await farmsById(deps.farms, [...farmIds.values()].flatMap((s) => [...s]));
  const byType = [...counts.entries()]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([type, count]) => ({
      type,
      count,
      farms: [...(farmIds.get(type) ?? [])].flatMap((id) => {
        const farm = named.get(id);
        return farm ? [{ _id: id, fonterra_id: farm.fonterra_id }] : [];
      }),
    }));
  return { hours: ALERT_WINDOW_HOURS, total: byType.reduce((sum, t) => sum + t.count, 0), by_type: byType };
};

const ingestHealth = async (stats: Ports['fleetStats'], deadLetterQueue: Ports['deadLetterQueue'], now: number) => {
  const [hours, deadLetters] = await Promise.all([stats.ingestHours(utcHour(now - 23 * HOUR)), deadLetterQueue.count()]);
  const last = hours.filter((h) => h.lastBatchAt).sort((a, b) => String(b.lastBatchAt).localeCompare(String(a.lastBatchAt)))[0];
  return {
    last_batch_at: last?.lastBatchAt ?? null,
    iterator_age_ms: last?.lastIteratorAgeMs ?? null,
    retried_24h: hours.reduce((sum, h) => sum + h.retried, 0),
    dead_letters: deadLetters,
  };
};

const deviceHit = (device: Device, farm: Farm | undefined): SearchHit => ({
  kind: 'device',
  _id: device._id,
  label: device.name,
  detail: farm ? `${farm.fonterra_id} / Vat ${device.vat_number}` : 'N/A',
  key: device._id,
});
const farmHit = (farm: Farm): SearchHit => ({ kind: 'farm', _id: farm._id, label: farm.name || farm.fonterra_id, detail: `Supply number ${farm.fonterra_id}`, key: farm.fonterra_id });

/** Exact matches: a supply number, a unit's IMEI (its farm's vats), a device's thing name, an email. */
const exactHits = async (deps: Pick<Ports, 'farms' | 'units'>, q: string, withUsers: boolean): Promise<SearchHit[]> => {
  const imei = /^\d{15}$/.test(q) ? q : undefined;
  const [bySupply, unit, thing, users] = await Promise.all([
    deps.farms.findFarmBySupplyNumber(q),
    imei ? deps.units.getUnit(imei) : undefined,
    deps.farms.getDevice(q),
    withUsers && q.includes('@') ? deps.farms.findUsersByEmail(q.toLowerCase()) : [],
  ]);
  const hits: SearchHit[] = bySupply ? [farmHit(bySupply)] : [];
  if (unit) {
    const [farm, devices] = await Promise.all([deps.farms.getFarm(unit.farm_id), deps.farms.listDevicesOfFarm(unit.farm_id)]);
    hits.push(...devices.map((d) => deviceHit(d, farm)));
  }
  if (thing) hits.push(deviceHit(thing, thing.farm_id ? await deps.farms.getFarm(thing.farm_id) : undefined));
  hits.push(...users.map((u): SearchHit => ({ kind: 'user', _id: u._id, label: `${u.firstName} ${u.lastName}`.trim() || u.email, detail: u.email, key: u.email })));
  return hits;
};

/** One page of a kind's prefix matches, as hits. */
const prefixHits = async (deps: Pick<Ports, 'farms' | 'fleetLookups'>, kind: SearchKind, q: string, after: string | undefined): Promise<LookupPage<SearchHit>> => {
  if (kind === 'farm') {
    const page = await deps.fleetLookups.farmsByName(q, SEARCH_PAGE, after);
    const farms = await farmsById(deps.farms, page.items);
    return { items: page.items.flatMap((id) => (farms.get(id) ? [farmHit(farms.get(id) as Farm)] : [])), ...(page.next ? { next: page.next } : {}) };
  }
  if (kind === 'device') {
    const page = await deps.fleetLookups.devicesByName(q, SEARCH_PAGE, after);
    const devices = (await Promise.all(page.items.map((id) => deps.farms.getDevice(id)))).filter((d): d is Device => d !== undefined);
    const farms = await farmsById(deps.farms, devices.map((d) => d.farm_id));
    return { items: devices.map((d) => deviceHit(d, farms.get(d.farm_id))), ...(page.next ? { next: page.next } : {}) };
  }
  const page = await deps.fleetLookups.usersByEmail(q, SEARCH_PAGE, after);
  const users = (await Promise.all(page.items.map((id) => deps.farms.getUser(id)))).filter((u) => u !== undefined);
  return {
    items: users.map((u): SearchHit => ({ kind: 'user', _id: u._id, label: `${u.firstName} ${u.lastName}`.trim() || u.email, detail: u.email, key: u.email })),
    ...(page.next ? { next: page.next } : {}),
  };
};

/** /api/admin/device: the operators' fleet overview and search (operator §2, §6; decisions 055, 056). */
export const operatorFleetHandlers: readonly ServedAction[] = [
  serve(contracts.FLEET_SUMMARY, ['fleetStats', 'deadLetterQueue', 'farms', 'watchman', 'now'], async (_input, { deps }) => {
    const now = deps.now().getTime();
    const installsSince = weekStart(now);
    const month = localMonth(new Date(now), DEFAULT_TIME_ZONE);
    const [units, openCases, runs, alerts, installs, sms, ingest] = await Promise.all([
      deps.fleetStats.unitsBySeen(new Date(now - SILENT_AFTER_MS).toISOString(), SILENT_SHOWN),
      deps.watchman.listOpenCases(),
      deps.watchman.listRuns(0, 1),
      alertsByType(deps, now),
      deps.fleetStats.installsSince(installsSince, 'New Installs'),
      deps.fleetStats.smsSent(month),
      ingestHealth(deps.fleetStats, deps.deadLetterQueue, now),
    ]);
    const farms = await farmsById(deps.farms, units.oldest.map((u) => u.farm_id));
    return {
      at: new Date(now).toISOString(),
      units: {
        reporting: units.reporting,
        silent: units.silent,
        oldest: units.oldest.map((u) => ({ ...u, fonterra_id: farms.get(u.farm_id)?.fonterra_id ?? null, timezone: farms.get(u.farm_id)?.timezone ?? DEFAULT_TIME_ZONE })),
      },
      watchman: { open_cases: openCases.length, last_run: runs[0]?.started_at ?? null },
      alerts,
      installs: { since: installsSince, count: installs },
      sms: { month, sent: sms, alarm_usd: SMS_SPEND_ALARM_USD, price_usd: SMS_PRICE_USD },
      ingest,
    };
  }),

  /**
   * A supply number, IMEI, device name, farm name or email (operator search, decision 056): exact
   * keys first, then a page of each kind's prefix matches; users only for an Admin (the Users page
   * is theirs alone). With `kind` and `after`, the next page of that kind only.
   */
  serve(contracts.OPERATOR_SEARCH, ['farms', 'fleetLookups', 'units'], async ({ q, kind, after }, { deps, caller }) => {
    const withUsers = caller.groups.includes('Admin');
    const kinds = (kind ? [kind] : (['farm', 'device', 'user'] as const)).filter((k) => k !== 'user' || withUsers);
    const [exact, pages] = await Promise.all([kind ? [] : exactHits(deps, q, withUsers), Promise.all(kinds.map((k) => prefixHits(deps, k, q, after)))]);
    const seen = new Set<string>();
    const hits = [...exact, ...pages.flatMap((p) => p.items)].filter((h) => {
      const id = `${h.kind}:${h._id}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const next = Object.fromEntries(kinds.flatMap((k, i) => (pages[i]?.next ? [[k, pages[i].next]] : [])));
    return { hits, next };
  }),

  /**
   * The list behind the overview's ingest health (decision 076): the dead letters waiting, and one
   * UTC day's rejected messages a page at a time (each day is its own partition, kept
   * REJECTED_DAYS_KEPT days), so the call reads one page whatever the day held.
   */
  serve(contracts.INGEST_PROBLEMS, ['readings', 'deadLetterQueue', 'now'], async ({ day, after }, { deps }) => {
    const today = deps.now().toISOString().slice(0, 10);
    const wanted = day ?? today;
    if (wanted > today || wanted < addDays(today, -REJECTED_DAYS_KEPT)) throw new ValidationError(`day must be within the last ${REJECTED_DAYS_KEPT} days`);
    const [page, deadLetters] = await Promise.all([deps.readings.pageRejected(wanted, INGEST_PROBLEMS_PAGE, after), deps.deadLetterQueue.count()]);
    return {
      day: wanted,
      dead_letters: deadLetters,
      rejected: page.items.map((r) => ({ received_at: r.received_at, topic: r.topic, reason: r.reason, payload: r.payload.slice(0, REJECTED_PAYLOAD_SHOWN) })),
      next: page.next ?? null,
    };
  }),
];
