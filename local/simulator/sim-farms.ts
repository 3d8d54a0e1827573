import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Device } from '../../shared/entities/device';
import { DAIRY_COMPANY_SUPPLIER, type Farm, type KnodeAsset } from '../../shared/entities/farm';
import { unitThingName } from '../../shared/entities/install';
import { knodeTopic, telemetryTopic, unitTelemetryTopic } from '../../shared/telemetry/device-message';
import type { VatConfig } from '../../shared/telemetry/reading';
import { createKnodeModel, knodeThingOf, type KnodeModel, type KnodeModelState } from './knode-model';
import { createVatModel, type VatModel } from './vat-model';
import type { VatModelState } from './vat-state';

/** The simulator's farms, and the models it runs for them (a vat model per device, a knode model per farm with assets), saved between runs. */

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

export type Entry =
  | { kind: 'vat'; key: string; topic: string; model: VatModel; next: number; controller: boolean; vatNumber: number; unit: string | undefined }
  | { kind: 'knode'; key: string; topic: string; model: KnodeModel; next: number };
export type VatEntry = Extract<Entry, { kind: 'vat' }>;

export const MINUTE = 60_000;

interface SavedState {
  readonly version: 1;
  readonly vats: Record<string, VatModelState>;
  readonly knode: Record<string, KnodeModelState>;
}

export const readState = (file: string | undefined): SavedState | undefined => {
  if (!file) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as SavedState;
    return parsed.version === 1 && parsed.vats && parsed.knode ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/** Writes every model's state (through a temporary file, so a crash never leaves half a file). */
export const writeState = (file: string, entries: readonly Entry[]) => {
  const state: SavedState = {
    version: 1,
    vats: Object.fromEntries(entries.flatMap((e) => (e.kind === 'vat' ? [[e.key, e.model.state()]] : []))),
    knode: Object.fromEntries(entries.flatMap((e) => (e.kind === 'knode' ? [[e.key, e.model.state()]] : []))),
  };
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
};

/** The first time ≥ from on the grid of last + k·interval (so a device keeps its second of the minute). */
const onGrid = (last: number, interval: number, from: number) => (last + interval >= from ? last + interval : last + Math.ceil((from - last) / interval) * interval);

/**
 * The models of the farms' vats and knode gateways, each continuing from its saved state (on its
 * grid of minutes) or starting at `startAt`; and the vats by device and by unit.
 */
export const createEntries = (farms: readonly SimFarm[], saved: SavedState | undefined, startAt: number, o: { readonly seed: number; readonly randomFaults?: boolean | undefined }) => {
  const { seed } = o;
  const entries: Entry[] = [];
  for (const farm of farms) {
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

  return { entries, vats, units };
};
