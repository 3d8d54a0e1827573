import type { Server } from 'node:http';
import { connectAsync, type MqttClient } from 'mqtt';
import type { ActiveFault, FaultKind } from './faults';
import { answerCommands } from './sim-commands';
import { faultInjector, listenControl, type DeviceFault } from './fault-control';
import { createEntries, MINUTE, readState, writeState, type Entry, type SimFarm } from './sim-farms';

export { simFarmsFrom } from './sim-farms';

/**
 * The device simulator's driver: runs a vat model per device and a knode model per farm with
 * assets, and publishes their messages over MQTT (QoS 1) like the real devices do. Simulated
 * time never runs ahead of the wall clock (the platform rejects readings from the future): it
 * catches up from the backfill start to now, rate-limited so the stack stays responsive, then
 * publishes each vat's reading once a minute.
 */

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

const TICK_MS = 100;
const SAVE_EVERY_MS = 30_000;

const describeFaults = (faults: readonly ActiveFault[]) =>
  faults.map((f) => `${f.kind} until ${new Date(f.until).toISOString()}`).join(', ');

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
  const { entries, vats, units } = createEntries(o.farms, saved, startAt, { seed, randomFaults: o.randomFaults });

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

  await answerCommands(client, vats, units, log);

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
    writeState(o.stateFile, entries);
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

  const { inject, faults } = faultInjector(vats, units, log);

  let server: Server | undefined;
  let controlUrl: string | undefined;
  if (o.controlPort !== undefined) {
    ({ server, url: controlUrl } = await listenControl(o.controlPort, inject, faults).catch(async (err: unknown) => {
      await client.endAsync(true);
      throw err;
    }));
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
