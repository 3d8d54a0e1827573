import type { Device, LastUpdated } from '../../shared/entities/device';
import type { Farm, KnodeAsset } from '../../shared/entities/farm';
import type { User } from '../../shared/entities/user';

/** People's profiles (`USER#<id>` / `PROFILE`, found by email in gsi1) and their listing entries. */
export interface UserStore {
  getUser(userId: string): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<User | undefined>;
  /** Every profile stored with the address: anyone can sign up with any address, so it may be several. */
  findUsersByEmail(email: string): Promise<User[]>;
  /** Writes the profile; with `onlyIfNew` it never overwrites (sign-up retried, seed re-run). */
  putUser(user: User, options?: { onlyIfNew?: boolean }): Promise<void>;
  listUsers(): Promise<User[]>;
  /** Changes the named fields of an existing profile and answers it as stored; undefined when there is none. */
  updateUser(userId: string, change: UserChange): Promise<User | undefined>;
  /**
   * The herdsman flag (operator §2): on, with the herd link's token id; off, with the token id
   * removed so an old link stops working. Answers the user after the change, undefined when
   * there is no such user.
   */
  setHerd(userId: string, herd: { readonly enabled: true; readonly tokenId: string } | { readonly enabled: false }): Promise<User | undefined>;
}

/** A user's links to farms (`USER#<id>` / `FARM#<id>`; gsi1 lists a farm's users). */
export interface FarmLinks {
  linkUserToFarm(userId: string, farmId: string): Promise<void>;
  listFarmIdsOfUser(userId: string): Promise<string[]>;
  isLinked(userId: string, farmId: string): Promise<boolean>;
}

/** Farms (`FARM#<id>` / `FARM`, found by supply number in gsi1) and their listing entries. */
export interface FarmStore {
  getFarm(farmId: string): Promise<Farm | undefined>;
  getFarms(farmIds: readonly string[]): Promise<Farm[]>;
  findFarmBySupplyNumber(fonterraId: string): Promise<Farm | undefined>;
  putFarm(farm: Farm): Promise<void>;
  /** Sets one of the admin flags (operator §4); answers the farm after it, undefined for an unknown farm. */
  /** `byOperator` on the sync flag: an operator's off holds it off against Watchman (`fonterra_sync_held`). */
  setFarmFlag(farmId: string, flag: 'auto_check' | 'fonterra_api_status' | 'harvest', value: boolean, byOperator?: boolean): Promise<Farm | undefined>;
  listFarms(): Promise<Farm[]>;
  /** Removes a farm record and its listing entry (the installer's undo of a failed new install). */
  deleteFarm(farmId: string): Promise<void>;
}

/** Vat devices (`DEVICE#<id>` / `DEVICE`; gsi1 lists a farm's vats, gsi2 the fleet), their thing names and listing entries. */
export interface DeviceStore {
  getDevice(deviceId: string): Promise<Device | undefined>;
  putDevice(device: Device): Promise<void>;
  /** Removes a device, its thing-name entry and its listing entry (the same undo). */
  deleteDevice(device: Pick<Device, '_id' | 'name'>): Promise<void>;
  /** A farm's devices ordered by vat number. */
  listDevicesOfFarm(farmId: string): Promise<Device[]>;
  listDevices(): Promise<Device[]>;
}

/** A farm's knode assets (`FARM#<id>` / `KNODE#<asset>`). */
export interface KnodeAssets {
  /** Knode assets (water, effluent, land, weather) of a farm, keyed by asset name. */
  putKnodeAsset(farmId: string, asset: KnodeAsset): Promise<void>;
  /** A knode gateway's reading of an asset; an older reading than the stored one changes nothing. */
  updateKnodeAsset(farmId: string, asset: KnodeAsset & { published_at: string }): Promise<void>;
  listKnodeAssets(farmId: string): Promise<KnodeAsset[]>;
}

/** What publishes under an MQTT thing name (`THING#<name>`): a vat device or a farm's knode gateway. */
export interface ThingOwners {
  /** Registers a farm's knode gateway thing (its assets arrive on dts/<thing>/knode). */
  putKnodeGateway(thingName: string, farmId: string): Promise<void>;
  /** What publishes under an MQTT thing name, or as `<unit>/<vat>` (unitVatSender) a unit's vat. */
  resolveThing(thingName: string): Promise<ThingOwner | undefined>;
}

/** The ingest's per-device state, kept on the device item under an optimistic lock. */
export interface IngestRecords {
  /** The device with the ingest's state (undefined before its first reading). */
  getDeviceForIngest(deviceId: string): Promise<{ device: Device; ingest: IngestRecord | undefined } | undefined>;
  /**
   * Commits the ingest's state if nobody else committed since version `expectedV` was read
   * (optimistic lock: v grows with every commit; undefined, the device's first). With
   * `lastUpdated`, the device's live values change too. false: someone else committed first.
   */
  commitIngest(deviceId: string, ingest: IngestRecord, expectedV: number | undefined, live?: { lastUpdated: LastUpdated; seenAt: string }): Promise<boolean>;
}

/** Users, farms, links and devices: the port the API and the seed use. */
export type FarmRepository = UserStore & FarmLinks & FarmStore & DeviceStore & KnodeAssets & ThingOwners & IngestRecords;

/** The profile fields a person or an operator changes after sign-up (the email and id never change). */
type UserChange = Partial<Pick<User, 'firstName' | 'lastName' | 'phone' | 'subscribed' | 'email_verify' | 'phone_verify' | 'is_herd_enabled' | 'token_id'>>;

export type ThingOwner = { readonly kind: 'device'; readonly device_id: string } | { readonly kind: 'knode'; readonly farm_id: string };

/** The ingest's per-device state, stored on the device item (JSON text; n beside it for the lock). */
export interface IngestRecord {
  /** The readings the state has seen (the same for the same readings, whatever the delivery order). */
  readonly n: number;
  /**
   * The lock version: grows with every commit, also one that adds no reading (a replay intent).
   * Absent on an item written before it existed: n is its version then.
   */
  readonly v?: number;
  readonly state: unknown;
}
