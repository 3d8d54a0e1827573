import type { Farm, KnodeAsset } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';

/** Data builders for tests: a valid entity with the fields a test cares about overridden. */
export const build = {
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
