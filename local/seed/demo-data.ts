import type { Device } from '../../shared/entities/device';
import { itemsOf, type EquipmentItem } from '../../shared/entities/equipment';
import type { Farm, KnodeAsset } from '../../shared/entities/farm';
import type { Organization, OrganizationRole } from '../../shared/entities/organization';
import type { OperatorGroup } from '../../shared/roles';

/**
 * Demo data: farms on each package with 1 to 4 vats, dairy-company farms (5-digit and FON
 * supply numbers) and others (Open Country, Westlands), and an account for every role.
 */
export const DEMO_PASSWORD = 'VatMan-demo-2026';

/**
 * The local stack's list of who may set the farm flags (operator §6: a fixed list of user ids;
 * FARM_FLAG_USER_IDS). Accounts by email, as their ids are made by the seed: the demo Admin.
 */
export const FARM_FLAG_ACCOUNTS: readonly string[] = ['admin@vatman.local'];

export interface DemoAccount {
  readonly role: 'Farmer' | 'Admin' | 'Installer' | 'Milk Quality' | 'Westlands' | 'Farmer (no farm)' | 'Demo farm (showroom)';
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string;
  readonly group?: OperatorGroup;
  readonly farms: readonly string[];
  /**
   * The herd site's token (farmer §2.2 herd link): the Admin's herdsman flag (USER_HERD_EDIT)
   * gives one; the demo farmer has one from the seed so the link shows.
   */
  readonly herdToken?: string;
  /** A demo-farm account (farmer §6): farm names instead of codes, no group link. */
  readonly demo?: boolean;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { role: 'Farmer', email: 'farmer@vatman.local', firstName: 'Aroha', lastName: 'Ngata', phone: '+64211234501', farms: ['farm-lite', 'farm-pro', 'farm-auto'], herdToken: 'herd-demo-aroha-7f3c9a' },
  { role: 'Farmer', email: 'westfarmer@vatman.local', firstName: 'Liam', lastName: 'Brennan', phone: '+64211234502', farms: ['farm-wes'] },
  { role: 'Admin', email: 'admin@vatman.local', firstName: 'Mere', lastName: 'Walker', phone: '+64211234503', group: 'Admin', farms: [] },
  { role: 'Installer', email: 'installer@vatman.local', firstName: 'Tom', lastName: 'Fraser', phone: '+64211234504', group: 'Installer', farms: [] },
  { role: 'Milk Quality', email: 'milkquality@vatman.local', firstName: 'Priya', lastName: 'Shah', phone: '+64211234505', group: 'MilkQuality', farms: [] },
  { role: 'Westlands', email: 'westlands@vatman.local', firstName: 'Hemi', lastName: 'Tane', phone: '+64211234506', group: 'Westlands', farms: [] },
  { role: 'Farmer (no farm)', email: 'newfarmer@vatman.local', firstName: 'Sam', lastName: 'Reid', phone: '+64211234507', farms: [] },
  { role: 'Demo farm (showroom)', email: 'demo@vatman.local', firstName: 'Demo', lastName: 'Showroom', phone: '+64211234508', farms: ['farm-lite', 'farm-pro', 'farm-auto'], demo: true },
];

/** A farm with the demo defaults (New Zealand time, milk module on, Watch on) and what `f` gives. */
export const demoFarm = (f: Pick<Farm, '_id' | 'fonterra_id' | 'name' | 'package' | 'install_numVats' | 'supplier'> & Partial<Pick<Farm, 'install_date'>> & { knode?: Partial<Farm['knode']> }): Farm => ({
  is_milk_enabled: true,
  power: true,
  timezone: 'Pacific/Auckland',
  auto_check: true,
  fonterra_api_status: false,
  harvest: false,
  install_date: '2026-03-02',
  ...f,
  knode: { is_water_enabled: false, is_effluent_enabled: false, is_land_enabled: false, is_weather_enabled: false, ...f.knode },
});

export const DEMO_FARMS: readonly Farm[] = [
  demoFarm({ _id: 'farm-lite', fonterra_id: 'OCD40721', name: 'Kowhai Flats', package: 'Vat-Man Lite', install_numVats: 1, supplier: 'OCD' }),
  demoFarm({ _id: 'farm-pro', fonterra_id: '31245', name: 'Totara Downs', package: 'Vat-Man Pro', install_numVats: 2, supplier: 'FON', install_date: '2025-11-18', knode: { is_water_enabled: true, is_weather_enabled: true } }),
  demoFarm({
    _id: 'farm-auto',
    fonterra_id: 'FON50412',
    supplier: 'FON',
    name: 'Rimu Valley',
    package: 'Vat-Man Auto',
    install_numVats: 4,
    install_date: '2026-06-09',
    knode: { is_water_enabled: true, is_effluent_enabled: true, is_land_enabled: true, is_weather_enabled: true },
  }),
  demoFarm({ _id: 'farm-wes', fonterra_id: 'WES118', name: 'Matai Road', package: 'Vat-Man Lite', install_numVats: 3, supplier: 'WES' }),
];

/** Vat sizes and heights from the installer table (operator spec §9). */
const VATS: Record<string, readonly { size: number; diameter: number; height: number; auto?: boolean }[]> = {
  'farm-lite': [{ size: 9100, diameter: 2337, height: 2438 }],
  'farm-pro': [
    { size: 14000, diameter: 2875, height: 2438 },
    { size: 11000, diameter: 2337, height: 2719 },
  ],
  'farm-auto': [
    { size: 21500, diameter: 2875, height: 3500, auto: true },
    { size: 21500, diameter: 2875, height: 3500, auto: true },
    { size: 18000, diameter: 2875, height: 3000, auto: true },
    { size: 12000, diameter: 2337, height: 3000, auto: true },
  ],
  'farm-wes': [
    { size: 7800, diameter: 2337, height: 2000 },
    { size: 7800, diameter: 2337, height: 2000 },
    { size: 5700, diameter: 2337, height: 1500 },
  ],
};

export const DEMO_DEVICES: readonly Device[] = DEMO_FARMS.flatMap((f) =>
  (VATS[f._id] ?? []).map((v, i): Device => ({
    _id: `dev-${f.fonterra_id.toLowerCase()}-${i + 1}`,
    name: `vm-${f.fonterra_id.toLowerCase()}-${i + 1}`,
    farm_id: f._id,
    vat_number: i + 1,
    status: 1,
    system_version: '3.2.1',
    firmware_version: '41',
    vat_size: v.size,
    vat_max_height: v.height,
    vat_diameter: v.diameter,
    wedgeHeight: 60,
    vat_volume_offset: 0,
    vat_auto: v.auto ?? false,
  })),
);

/** Each demo farm's controller unit (installer tools: one unit per farm, up to 4 vats), by IMEI. */
export const DEMO_UNIT_IMEIS: Readonly<Record<string, string>> = {
  'farm-lite': '352656100000011',
  'farm-pro': '352656100000029',
  'farm-auto': '352656100000037',
  'farm-wes': '352656100000045',
};

export const DEMO_KNODE: Readonly<Record<string, readonly KnodeAsset[]>> = {
  'farm-pro': [
    { type: 'Tank', asset_name: 'House tank', metric_value_1: 71, unit_1: '%', url: 'https://app.vatman.example/knode/house-tank', alarm_active: false },
    { type: 'WeatherStation', asset_name: 'Shed weather', metric_value_1: 2.4, metric_value_2: 14.2, metric_value_3: 78, metric_value_4: 11, metric_value_5: 225, metric_value_6: 412, unit_1: 'mm', url: 'https://app.vatman.example/knode/shed-weather' },
  ],
  'farm-auto': [
    { type: 'Tank', asset_name: 'Dairy tank', metric_value_1: 18, unit_1: '%', url: 'https://app.vatman.example/knode/dairy-tank', alarm_active: true },
    { type: 'Tank', asset_name: 'Trough tank', metric_value_1: 64, unit_1: '%', url: 'https://app.vatman.example/knode/trough-tank', alarm_active: false },
    { type: 'TravellingIrrigator', asset_name: 'Irrigator 1', metric_value_1: 0, unit_1: 'm/h', url: 'https://app.vatman.example/knode/irrigator-1' },
    { type: 'PumpEffluentSurface', asset_name: 'Effluent pump', metric_value_1: 0, unit_1: 'kW', url: 'https://app.vatman.example/knode/effluent-pump' },
    { type: 'SoilProbe', asset_name: 'Paddock 7 probe', metric_value_1: 11.8, metric_value_2: 34, unit_1: '°C', url: 'https://app.vatman.example/knode/paddock-7' },
    { type: 'WeatherStation', asset_name: 'Ridge weather', metric_value_1: 0.6, metric_value_2: 12.9, metric_value_3: 82, metric_value_4: 17, metric_value_5: 292, metric_value_6: 365, unit_1: 'mm', url: 'https://app.vatman.example/knode/ridge-weather' },
  ],
};

/**
 * The demo farms' cooling plants (farmer §2.13), one of each pre-cooling: Lite has none, Pro a
 * plate chiller ('Chilling'), Auto an ice bank with a sidewall vat of two fridges. Matai Road
 * (farm-wes) is left undescribed: its screen shows the defaults.
 */
export const DEMO_EQUIPMENT: Readonly<Record<string, readonly EquipmentItem[]>> = {
  'farm-lite': itemsOf({ preCooling: 0, vats: [{ id: 1, value: 1, sub_value: 1 }] }),
  'farm-pro': itemsOf({ preCooling: 1, vats: [{ id: 1, value: 1, sub_value: 1 }, { id: 2, value: 1, sub_value: 1 }] }),
  'farm-auto': itemsOf({
    preCooling: 2,
    vats: [
      { id: 1, value: 2, sub_value: 2 },
      { id: 2, value: 1, sub_value: 1 },
      { id: 3, value: 1, sub_value: 1 },
      { id: 4, value: 1, sub_value: 1 },
    ],
  }),
};

/** Milking windows of two demo farms (operator §3 Farm settings row): buffer minutes, end of milking local time. */
export const DEMO_MILKING_WINDOWS: readonly { farm_id: string; fonterra_id: string; buffer_duration: number; end_of_milking: string }[] = [
  { farm_id: 'farm-pro', fonterra_id: '31245', buffer_duration: 30, end_of_milking: '08:30' },
  { farm_id: 'farm-auto', fonterra_id: 'FON50412', buffer_duration: 45, end_of_milking: '09:00' },
];

/**
 * The demo organization (farmer §2.12): a group on Vat-Man Pro (so its Summary shows 120 texts a
 * month) with two of the demo farmer's farms; the demo farmer is its Admin and the Westlands
 * farmer a member (role User), so the group link shows for both and only the first may edit.
 */
export const DEMO_ORGANIZATION: {
  readonly organization: Organization;
  readonly farms: readonly string[];
  readonly roles: readonly { readonly email: string; readonly role: OrganizationRole }[];
} = {
  organization: {
    _id: 'org-ngata',
    name: 'Ngata Farming Group',
    tag: 'Group',
    contact: 'Aroha Ngata',
    address: '12 Totara Road, Matamata',
    email: 'farmer@vatman.local',
    phone: '+64211234501',
    package: 'Vat-Man Pro',
    parent_id: null,
  },
  farms: ['farm-pro', 'farm-auto'],
  roles: [
    { email: 'farmer@vatman.local', role: 'Admin' },
    { email: 'westfarmer@vatman.local', role: 'User' },
  ],
};
