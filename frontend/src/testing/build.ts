import type { DeviceRow } from '@shared/api/actions/admin-device';
import type { Farm, KnodeAsset } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';

/** Data builders for tests: a valid entity with the fields a test cares about overridden. */
export const build = {
  /** A device list row (operator §2): a Pro farm's vat 1 with fresh live values. */
  deviceRow: (name: string, over: Partial<DeviceRow> = {}): DeviceRow => ({
    _id: `dev-${name}`,
    name,
    farm_id: 'farm-pro',
    vat_number: 1,
    status: 1,
    vat_size: 14000,
    vat_max_height: 2438,
    vat_diameter: 2875,
    wedgeHeight: 0,
    vat_volume_offset: 0,
    vat_auto: false,
    system_version: '5.6.0',
    fonterra_id: '31245',
    farm_name: 'Totara Downs',
    timezone: 'Pacific/Auckland',
    retired_messages: 0,
    last_updated: { published_at: new Date(Date.now() - 5 * 60_000).toISOString(), milk_level: 900, temp1: 4.2, temp2: 12.3, shaft_rpm: 420, state_machine: 'storage' },
    ...over,
  }),
  user: (over: Partial<User> = {}): User => ({
    _id: 'user-1',
    firstName: 'Aroha',
    lastName: 'Smith',
    email: 'aroha@example.nz',
    phone: '+64211234567',
    role: 'User',
    is_herd_enabled: 0,
    subscribed: true,
    email_verify: 2,
    phone_verify: 2,
    created_at: '2026-01-05 09:00:00',
    ...over,
  }),
  farm: ({ knode, ...over }: Partial<Omit<Farm, 'knode'>> & { knode?: Partial<Farm['knode']> } = {}): Farm => ({
    _id: 'farm-1',
    fonterra_id: '31245',
    package: 'Vat-Man Lite',
    is_milk_enabled: true,
    power: true,
    knode: { is_water_enabled: false, is_effluent_enabled: false, is_land_enabled: false, is_weather_enabled: false, ...knode },
    timezone: 'Pacific/Auckland',
    auto_check: false,
    fonterra_api_status: true,
    harvest: false,
    install_numVats: 1,
    ...over,
  }),
  asset: (over: Partial<KnodeAsset> & Pick<KnodeAsset, 'type'>): KnodeAsset => ({
    asset_name: `${over.type} 1`,
    url: `https://knode.example/${encodeURIComponent(over.asset_name ?? over.type)}`,
    ...over,
  }),
};

/** A complete runtime config.json (the four values every stage must give), for the config and start-up tests. */
export const GOOD_WEB_CONFIG = {
  apiUrl: 'https://api.example.test',
  region: 'ap-southeast-2',
  userPoolId: 'ap-southeast-2_AbCdEf123',
  userPoolClientId: 'client123',
} as const;
