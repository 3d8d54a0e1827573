import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Device } from '../../shared/entities/device';
import { DAIRY_COMPANY_SUPPLIER, type Farm, type KnodeAsset } from '../../shared/entities/farm';
import { unitThingName } from '../../shared/entities/install';
import { UNIT_CHECK_TOPIC_FILTER, type UnitStatus } from '../../shared/installer/unit-check';
import { knodeTopic, replyTopic, telemetryTopic, unitTelemetryTopic } from '../../shared/telemetry/device-message';
import type { VatConfig } from '../../shared/telemetry/reading';
import { effectsAt, FAULT_KINDS, faultRequestSchema, isControllerFault, WEAK_SIGNAL, type ActiveFault, type FaultKind } from './faults';
import { createKnodeModel, knodeThingOf, type KnodeModel, type KnodeModelState } from './knode-model';
import { createVatModel, type VatModel, type VatModelState } from './vat-model';

/**
 * The device simulator's driver: runs a vat model per device and a knode model per farm with
 * assets, and publishes their messages over MQTT (QoS 1) like the real devices do. Simulated
 * time never runs ahead of the wall clock (the platform rejects readings from the future): it
 * catches up from the backfill start to now, rate-limited so the stack stays responsive, then
 * publishes each vat's reading once a minute.
 */

interface SimVat {
  /** Device name (its thing name on the deprecated per-vat topic dts/<device>/telemetry). */
  readonly device: string;
  /** The vat's number on its farm (1-4). @default its place in the farm's list */
  readonly vatNumber?: number;
  readonly vat: VatConfig;
}

export interface SimFarm {
  readonly fonterra_id: string;
  readonly timezone: string;
  readonly vats: readonly SimVat[];
  /**
   * The farm's controller unit (its thing name, unit-<imei>): the vats publish on
   * dts/<unit>/<vat>/telemetry, and the unit answers Check Install's commands on
   * dts/<unit>/cmd/check. Without one, each vat publishes on its deprecated dts/<device>/telemetry.
   */
  readonly unit?: string;
  /** Vat-Man Auto: each vat's controller reports its selector (`controller_status`). */
  readonly controller?: boolean;
  /** The dairy company's farms (supplier FON): each vat reports the quality estimates. */
  readonly quality?: boolean;
  /** Knode assets; when any, the farm's gateway publishes to dts/kn-<supply number>/knode. */
  readonly knode?: readonly KnodeAsset[];
}

interface SimulatorOptions {
  readonly mqttUrl: string;
  readonly farms: readonly SimFarm[];
  /** Where each vat's last simulated time and model state is kept, so a restart continues the series. */
  readonly stateFile?: string;
  /** On first start (or after a longer stop), begin this many hours ago. @default 48 */
  readonly backfillHours?: number;
  /**
   * Simulated minutes per real minute until the present is reached (then 1×: never ahead of the
   * clock). 1, the default, catches up as fast as catchUpPerSecond allows. @default 1
   */
  readonly speed?: number;
  /** Messages per second while catching up. @default 400 */
  readonly catchUpPerSecond?: number;
  /** An occasional random fault, about one per farm every three simulated days. @default false */
  readonly randomFaults?: boolean;
  readonly now?: () => Date;
  /** @default 1 */
  readonly seed?: number;
  /** HTTP control server on 127.0.0.1 (POST/GET /faults); 0 for any free port; none when absent. */
  readonly controlPort?: number;
  /** Progress lines (faults injected, caught up, publish errors). @default silent */
  readonly log?: (line: string) => void;
  /**
   * A tanker starts emptying a vat: the litres really in it (the model's truth, not what the radar
   * and the vat's configuration make of it) and the milk's temperature. The local stack hands it to
   * the dairy company's gateway stand-in, whose dockets are made from it.
   */
  readonly onPickup?: (p: { readonly device: string; readonly at: number; readonly litres: number; readonly temperature: number | null }) => void;
}

interface DeviceFault {
  readonly device: string;
  readonly kind: FaultKind;
  /** Simulated time span, ISO. */
  readonly from: string;
  readonly until: string;
}

export interface SimulatorHandle {
  stop(): Promise<void>;
  /** Starts a fault on a device at its next simulated minute. Throws for an unknown device. */
  inject(f: { device: string; kind: FaultKind; minutes: number }): DeviceFault;
  /** Faults going on or still to come, per device. */
  faults(): DeviceFault[];
  /** Resolves once every vat has published up to the present. */
  readonly caughtUp: Promise<void>;
  /** The control server's base URL, when controlPort was given. */
  readonly controlUrl?: string;
}

/** The demo data as simulator farms (farms, their devices, knode assets keyed by farm _id). */
export const simFarmsFrom = (
  farms: readonly Farm[],
  devices: readonly Device[],
  knode: Readonly<Record<string, readonly KnodeAsset[]>> = {},
  /** Each farm's unit IMEI, by farm _id. */
  units: Readonly<Record<string, string>> = {},
): SimFarm[] =>
  farms.map((f) => ({
    fonterra_id: f.fonterra_id,
    ...(units[f._id] ? { unit: unitThingName(units[f._id] as string) } : {}),
    timezone: f.timezone,
    controller: f.package === 'Vat-Man Auto',
    quality: f.supplier === DAIRY_COMPANY_SUPPLIER,
    vats: devices
      .filter((d) => d.farm_id === f._id && d.status === 1)
      .sort((a, b) => a.vat_number - b.vat_number)
      .map((d) => ({
        device: d.name,
        vatNumber: d.vat_number,
        vat: { vat_size: d.vat_size, vat_max_height: d.vat_max_height, vat_diameter: d.vat_diameter, wedgeHeight: d.wedgeHeight, vat_volume_offset: d.vat_volume_offset },
      })),
    knode: knode[f._id] ?? [],
  }));

type VatEntry = Extract<Entry, { kind: 'vat' }>;

/**
 * A unit's answer to Check Install (shared/installer/unit-check.ts), from its vats' models and
 * faults at their next minute (a fault injected now starts then, so the answer shows it at once):
 * undefined (no answer) when every vat is offline; the signal of its first reporting vat (weak
 * under weak_signal); power on BATTERY and discharging under power_cut; no sensor board for a
 * vat under sensor_board.
 */
const unitStatusOf = (vatsOfUnit: readonly VatEntry[]): UnitStatus | undefined => {
  const withEffects = vatsOfUnit.map((e) => ({ e, fx: effectsAt(e.model.activeFaults(e.next), e.next) }));
  const up = withEffects.filter((v) => !v.fx.offline);
  const first = up[0];
  if (!first) return undefined;
  const { signal } = first.e.model.state();
  const weak = up.some((v) => v.fx.weakSignal);
  const onBattery = up.some((v) => v.fx.powerCut);
  return {
    network: 'LTE',
    signal: weak ? { ...WEAK_SIGNAL } : { strength: signal.strength, quality: signal.quality },
    disconnects: signal.disconnects,
    power: onBattery ? { source: 'BATTERY', battery: { state: 'discharging' } } : { source: 'VIN', battery: { state: 'charging' } },
    sensorBoards: withEffects.filter((v) => !v.fx.sensorBoardMissing).map((v) => ({ vat: v.e.vatNumber, probe: true, radar: true })),
  };
};

interface SavedState {
  readonly version: 1;
  readonly vats: Record<string, VatModelState>;
  readonly knode: Record<string, KnodeModelState>;
}

type Entry =
  | { kind: 'vat'; key: string; topic: string; model: VatModel; next: number; controller: boolean; vatNumber: number; unit: string | undefined }
  | { kind: 'knode'; key: string; topic: string; model: KnodeModel; next: number };

const MINUTE = 60_000;
const TICK_MS = 100;
const SAVE_EVERY_MS = 30_000;

const describeFaults = (faults: readonly ActiveFault[]) =>
  faults.map((f) => `${f.kind} until ${new Date(f.until).toISOString()}`).join(', ');

const readState = (file: string | undefined): SavedState | undefined => {
  if (!file) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as SavedState;
    return parsed.version === 1 && parsed.vats && parsed.knode ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/** The first time ≥ from on the grid of last + k·interval (so a device keeps its second of the minute). */
const onGrid = (last: number, interval: number, from: number) => (last + interval >= from ? last + interval : last + Math.ceil((from - last) / interval) * interval);

export const startSimulator = async (o: SimulatorOptions): Promise<SimulatorHandle> => {
  const now = () => (o.now ? o.now() : new Date()).getTime();
  const seed = o.seed ?? 1;
  const speed = o.speed ?? 1;
  const perSecond = o.catchUpPerSecond ?? 400;
  const log = o.log ?? (() => undefined);
  if (!(speed > 0)) throw new Error(`speed must be a positive number (got ${speed})`);
  if (!(perSecond > 0)) throw new Error(`catchUpPerSecond must be a positive number (got ${perSecond})`);
  const names = o.farms.flatMap((f) => f.vats.map((v) => v.device));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`device ${dup} appears twice in the simulator's farms`);

  const saved = readState(o.stateFile);
  const startAt = now() - (o.backfillHours ?? 48) * 3_600_000;
  const entries: Entry[] = [];
  for (const farm of o.farms) {
    for (const [i, v] of farm.vats.entries()) {
      const prior = saved?.vats[v.device];
      const model = createVatModel(
        {
          device: v.device,
          farmKey: farm.fonterra_id,
          timezone: farm.timezone,
          vat: v.vat,
          seed,
          randomFaultsPerDay: o.randomFaults ? 1 / (3 * farm.vats.length) : 0,
          controller: farm.controller === true,
          quality: farm.quality === true,
        },
        prior,
      );
      const next = prior?.t != null ? onGrid(prior.t, MINUTE, startAt) : model.nextTime(startAt);
      const vatNumber = v.vatNumber ?? i + 1;
      const topic = farm.unit ? unitTelemetryTopic(farm.unit, vatNumber) : telemetryTopic(v.device);
      entries.push({ kind: 'vat', key: v.device, topic, model, next, controller: farm.controller === true, vatNumber, unit: farm.unit });
    }
    const assets = farm.knode ?? [];
    if (assets.length > 0) {
      const prior = saved?.knode[farm.fonterra_id];
      const model = createKnodeModel({ farmKey: farm.fonterra_id, timezone: farm.timezone, assets, seed }, prior);
      const next = prior?.t != null ? onGrid(prior.t, 10 * MINUTE, startAt) : model.nextTime(startAt);
      entries.push({ kind: 'knode', key: farm.fonterra_id, topic: knodeTopic(knodeThingOf(farm.fonterra_id)), model, next });
    }
  }
  const vats = new Map(entries.flatMap((e) => (e.kind === 'vat' ? [[e.key, e] as const] : [])));
  /** Each unit's vats. */
  const units = new Map<string, VatEntry[]>();
  for (const e of vats.values()) if (e.unit) units.set(e.unit, [...(units.get(e.unit) ?? []), e]);

  const client: MqttClient = await connectAsync(
    o.mqttUrl,
    { clientId: `vatman-simulator-${process.pid}-${Math.floor(Math.random() * 1e6)}`, reconnectPeriod: 2_000, connectTimeout: 5_000 },
    false,
  );
  let lastError = '';
  client.on('error', (err) => {
    if (err.message !== lastError) log(`simulator: MQTT ${err.message}`);
    lastError = err.message;
  });

  // Controller settings: a unit applies what arrives on dts/<unit>/cmd/settings for the
  // vat it names (a farm without a unit: the vat's own dts/<thing>/cmd/settings) and answers on
  // dts/<thing>/cmd/reply, as the real controller does; not while that vat is offline.
  // Check Install: a unit answers dts/<unit>/cmd/check with its status (unitStatusOf),
  // or not at all while offline.
  const settingsAnswer = (thing: string, vat: unknown): string | undefined => {
    const e = units.has(thing) ? units.get(thing)?.find((v) => v.vatNumber === vat) : vats.get(thing);
    if (!e || effectsAt(e.model.activeFaults(e.next), e.next).offline) return undefined;
    return 'Settings applied';
  };
  client.on('message', (topic, payload) => {
    const [, thing, , command] = topic.split('/');
    if (!thing || !(command === 'settings' ? vats.has(thing) || units.has(thing) : command === 'check' && units.has(thing))) return;
    try {
      const { request_id, vat } = JSON.parse(payload.toString('utf8')) as { request_id?: unknown; vat?: unknown };
      if (typeof request_id !== 'string') return;
      const answer = command === 'settings' ? settingsAnswer(thing, vat) : unitStatusOf(units.get(thing) ?? []);
      if (answer === undefined) return;
      void client.publishAsync(replyTopic(thing), JSON.stringify({ request_id, return_value: answer }), { qos: 1 }).catch(() => undefined);
    } catch {
      log(`simulator: unreadable command on ${topic}`);
    }
  });
  await client.subscribeAsync(['dts/+/cmd/settings', UNIT_CHECK_TOPIC_FILTER], { qos: 1 });

  const simStart = Math.min(...entries.map((e) => e.next), now());
  const realStart = now();
  // Never past the wall clock; with speed > 1 the simulated clock runs that much faster until then.
  const target = () => (speed > 1 ? Math.min(now(), simStart + speed * (now() - realStart)) : now());

  let resolveCaughtUp: () => void = () => undefined;
  const caughtUp = new Promise<void>((r) => (resolveCaughtUp = r));
  let isCaughtUp = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let lastSave = 0;

  const save = () => {
    if (!o.stateFile) return;
    const state: SavedState = {
      version: 1,
      vats: Object.fromEntries(entries.flatMap((e) => (e.kind === 'vat' ? [[e.key, e.model.state()]] : []))),
      knode: Object.fromEntries(entries.flatMap((e) => (e.kind === 'knode' ? [[e.key, e.model.state()]] : []))),
    };
    mkdirSync(dirname(o.stateFile), { recursive: true });
    const tmp = `${o.stateFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state));
    renameSync(tmp, o.stateFile);
    lastSave = Date.now();
  };

  const earliest = (): Entry | undefined => {
    let best: Entry | undefined;
    for (const e of entries) if (!best || e.next < best.next) best = e;
    return best;
  };

  const tick = async () => {
    const began = Date.now();
    const budget = Math.max(1, Math.round((perSecond * TICK_MS) / 1000));
    const limit = target();
    const publishes: Promise<unknown>[] = [];
    while (publishes.length < budget) {
      const e = earliest();
      if (!e || e.next > limit) break;
      const t = e.next;
      const collecting = e.kind === 'vat' && e.model.state().phase === 'collecting';
      const messages = e.kind === 'vat' ? [e.model.step(t)].filter((m) => m !== undefined) : e.model.step(t);
      if (o.onPickup && e.kind === 'vat' && !collecting && e.model.state().phase === 'collecting') {
        const m = messages[0];
        o.onPickup({ device: e.key, at: t, litres: Math.round(e.model.volume()), temperature: m && 'temp1' in m ? (m.temp1 ?? null) : null });
      }
      e.next = e.model.nextTime();
      for (const m of messages) publishes.push(client.publishAsync(e.topic, JSON.stringify(m), { qos: 1 }));
      for (const m of messages) if ('message_type' in m && m.message_type === 'AM') log(`simulator: alarm on ${e.key} at ${m.published_at} (${e.kind === 'vat' ? describeFaults(e.model.activeFaults(t)) : ''})`);
      if (e.kind === 'vat' && messages.length === 0) publishes.push(Promise.resolve()); // offline minutes count towards the budget too
    }
    const results = await Promise.allSettled(publishes);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed && failed.status === 'rejected' && !stopped) log(`simulator: publish failed: ${(failed.reason as Error).message ?? String(failed.reason)}`);
    if (!isCaughtUp && entries.every((e) => e.next > now())) {
      isCaughtUp = true;
      save();
      log(`simulator: caught up to ${new Date(now()).toISOString()} (${vats.size} vats)`);
      resolveCaughtUp();
    }
    if (Date.now() - lastSave > SAVE_EVERY_MS) save();
    if (stopped) return;
    const full = publishes.length >= budget;
    const nextDue = earliest()?.next ?? now() + MINUTE;
    const wait = full ? Math.max(0, TICK_MS - (Date.now() - began)) : Math.min(500, Math.max(20, (nextDue - target()) / Math.max(1, speed)));
    timer = setTimeout(() => {
      inFlight = tick().catch((err: unknown) => log(`simulator: ${err instanceof Error ? err.message : String(err)}`));
    }, wait);
  };
  if (entries.length === 0) {
    isCaughtUp = true;
    resolveCaughtUp();
  } else {
    inFlight = tick().catch((err: unknown) => log(`simulator: ${err instanceof Error ? err.message : String(err)}`));
  }

  const toDeviceFault = (device: string, f: ActiveFault): DeviceFault => ({
    device,
    kind: f.kind,
    from: new Date(f.from).toISOString(),
    until: new Date(f.until).toISOString(),
  });

  const inject: SimulatorHandle['inject'] = (f) => {
    const req = faultRequestSchema.parse(f);
    // A fault on a unit is a fault on each of its vats (an offline unit: none of them reports).
    const ofUnit = units.get(req.device);
    if (ofUnit) {
      const [first] = ofUnit.map((e) => inject({ ...req, device: e.key }));
      return { ...(first as DeviceFault), device: req.device };
    }
    const e = vats.get(req.device);
    if (!e || e.kind !== 'vat') throw new UnknownDeviceError(req.device, [...vats.keys(), ...units.keys()]);
    if (isControllerFault(req.kind) && !e.controller) throw new Error(`${req.kind} needs a vat with a Vat-Man Auto controller; ${req.device} has none`);
    const fault = toDeviceFault(req.device, e.model.inject(req.kind, req.minutes, e.next));
    log(`simulator: ${fault.kind} on ${fault.device} from ${fault.from} to ${fault.until}`);
    return fault;
  };
  const faults = (): DeviceFault[] =>
    [...vats.values()].flatMap((e) => (e.kind === 'vat' ? e.model.activeFaults(e.next - MINUTE).map((f) => toDeviceFault(e.key, f)) : []));

  let server: Server | undefined;
  let controlUrl: string | undefined;
  if (o.controlPort !== undefined) {
    server = createServer((req, res) => handleControl(req, res, inject, faults));
    const port = await new Promise<number>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(o.controlPort, '127.0.0.1', () => {
        const a = server?.address();
        resolve(typeof a === 'object' && a ? a.port : 0);
      });
    }).catch(async (err: unknown) => {
      await client.endAsync(true);
      throw err;
    });
    controlUrl = `http://127.0.0.1:${port}`;
  }

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    // A publish waits for its PUBACK; don't let a broker that went away hold the stop forever.
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([inFlight, new Promise<void>((r) => (grace = setTimeout(r, 3_000)))]);
    clearTimeout(grace);
    clearTimeout(timer);
    save();
    if (server) {
      const s = server;
      await new Promise<void>((r) => {
        s.close(() => r());
        s.closeAllConnections();
      });
    }
    await client.endAsync(!client.connected);
  };

  return { stop, inject, faults, caughtUp, ...(controlUrl ? { controlUrl } : {}) };
};

class UnknownDeviceError extends Error {
  constructor(device: string, known: readonly string[]) {
    super(`unknown device '${device}': the simulator runs ${known.join(', ') || 'no devices'}`);
  }
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body)}\n`);
};

const handleControl = (
  req: IncomingMessage,
  res: ServerResponse,
  inject: SimulatorHandle['inject'],
  faults: () => DeviceFault[],
) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/faults') return send(res, 404, { error: 'not found: use GET /faults or POST /faults {"device","kind","minutes"}' });
  if (req.method === 'GET') return send(res, 200, { faults: faults() });
  if (req.method !== 'POST') return send(res, 405, { error: 'use GET or POST /faults' });
  let body = '';
  let tooLarge = false;
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
    if (body.length > 10_000) tooLarge = true;
  });
  req.on('end', () => {
    if (tooLarge) return send(res, 413, { error: 'body too large' });
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return send(res, 400, { error: `body must be JSON: {"device": "<device name>", "kind": "${FAULT_KINDS.join('|')}", "minutes": 60}` });
    }
    const parsed = faultRequestSchema.safeParse(json);
    if (!parsed.success) return send(res, 400, { error: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') });
    try {
      return send(res, 201, inject(parsed.data));
    } catch (err) {
      return send(res, 400, { error: err instanceof Error ? err.message : String(err) });
    }
  });
};
