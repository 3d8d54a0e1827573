import type { DeviceRow } from '@shared/api/actions/admin-device';

/*
 * The device list's search, sort and bars (operator §2 Device list, §9 Admin farms).
 */

const DAY = 86_400_000;

/** 'down': no data for over a day (or never). */
const isDown = (d: DeviceRow, now: number): boolean => {
  const at = d.last_updated ? Date.parse(d.last_updated.published_at) : Number.NaN;
  return Number.isNaN(at) || now - at > DAY;
};

/** 'boards': a sensor board that reports nothing (level, vat or inlet temperature, vibration). */
const missingBoards = (d: DeviceRow): boolean => {
  const v = d.last_updated;
  if (!v) return true;
  return [v.milk_level, v.temp1, v.temp2, v.shaft_rpm].some((x) => x === null || x === undefined);
};

/** 'sensors': a temperature below −5 °C or a shaft under 100 rpm. */
const badSensors = (d: DeviceRow): boolean => {
  const v = d.last_updated;
  if (!v) return false;
  return (typeof v.temp1 === 'number' && v.temp1 < -5) || (typeof v.temp2 === 'number' && v.temp2 < -5) || (typeof v.shaft_rpm === 'number' && v.shaft_rpm < 100);
};

/** 'N/A' when the device has no farm; else the supply number and the vat. */
export const farmLabel = (d: Pick<DeviceRow, 'fonterra_id' | 'vat_number'>): string => (d.fonterra_id ? `${d.fonterra_id} / Vat ${d.vat_number}` : 'N/A');

/** The search box: the keywords down, boards and sensors, or plain text over the row's words. */
export const searchDevices = (rows: readonly DeviceRow[], text: string, now: number): DeviceRow[] => {
  const q = text.trim().toLowerCase();
  if (q === '') return [...rows];
  if (q === 'down') return rows.filter((d) => isDown(d, now));
  if (q === 'boards') return rows.filter(missingBoards);
  if (q === 'sensors') return rows.filter(badSensors);
  return rows.filter((d) =>
    [d.name, d.fonterra_id, d.farm_name, farmLabel(d), d.system_version, d.last_updated?.state_machine].some((w) => typeof w === 'string' && w.toLowerCase().includes(q)),
  );
};

export type SortKey = 'name' | 'farm' | 'lastSeen' | 'level' | 'vatTemp' | 'inletTemp' | 'vibration' | 'os' | 'state' | 'status';

const sortValue = (d: DeviceRow, key: SortKey): string | number | null => {
  const v = d.last_updated;
  switch (key) {
    case 'name':
      return d.name;
    case 'farm':
      return farmLabel(d);
    case 'lastSeen':
      return v ? Date.parse(v.published_at) : null;
    case 'level':
      return v?.milk_level ?? null;
    case 'vatTemp':
      return v?.temp1 ?? null;
    case 'inletTemp':
      return v?.temp2 ?? null;
    case 'vibration':
      return v?.shaft_rpm ?? null;
    case 'os':
      return d.system_version ?? null;
    case 'state':
      return v?.state_machine ?? null;
    case 'status':
      return d.status;
  }
};

/** One collator for every comparison: `localeCompare` with options builds one per call, which a 2,000-device sort pays some 20,000 times. */
const byText = new Intl.Collator('en', { numeric: true }).compare;

/** Sorted by a column; rows without a value go last either way. */
export const sortDevices = (rows: readonly DeviceRow[], key: SortKey, direction: 'ascending' | 'descending'): DeviceRow[] => {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return (typeof x === 'number' && typeof y === 'number' ? x - y : byText(String(x), String(y))) * sign;
  });
};

/**
 * Rows the table shows at once: a national fleet (2,000 devices) is searched and sorted whole, then
 * shown a page at a time, as the Users table is, so a phone lays out some 1,000 elements, not 50,000.
 */
const DEVICES_PAGE_SIZE = 50;
export const devicePageCount = (total: number): number => Math.max(1, Math.ceil(total / DEVICES_PAGE_SIZE));
/** Page `page` (1-based) of `rows`, clamped to the pages there are. */
export const devicePageOf = <T,>(rows: readonly T[], page: number): T[] => {
  const p = Math.min(Math.max(1, page), devicePageCount(rows.length));
  return rows.slice((p - 1) * DEVICES_PAGE_SIZE, p * DEVICES_PAGE_SIZE);
};

export type BarTone = 'low' | 'warn' | 'ok' | 'cold' | 'hot';

/** operator §9 milk level bar: 0 to 2,000 mm, thresholds 150 and 180 mm (the radar's blind zone above the milk). */
const LEVEL_BAR = { max: 2000, low: 150, warn: 180 } as const;
export const levelBarOf = (mm: number | null | undefined): { percent: number; tone: BarTone } | undefined => {
  if (typeof mm !== 'number' || !Number.isFinite(mm)) return undefined;
  const percent = Math.min(100, Math.max(0, (mm / LEVEL_BAR.max) * 100));
  return { percent, tone: mm < LEVEL_BAR.low ? 'low' : mm < LEVEL_BAR.warn ? 'warn' : 'ok' };
};

/** operator §9 vat temperature bar: −10 to 20 °C, thresholds −10, 0, 6 and 10 °C. */
const TEMP_BAR = { min: -10, max: 20 } as const;
export const tempBarOf = (c: number | null | undefined): { percent: number; tone: BarTone } | undefined => {
  if (typeof c !== 'number' || !Number.isFinite(c)) return undefined;
  const percent = Math.min(100, Math.max(0, ((c - TEMP_BAR.min) / (TEMP_BAR.max - TEMP_BAR.min)) * 100));
  return { percent, tone: c < 0 ? 'cold' : c <= 6 ? 'ok' : c <= 10 ? 'warn' : 'hot' };
};

/** Message types drawn as vertical lines on the series (operator §2): AM red; EM, TEST, EM1-EM3 orange. */
export const MARKER_COLOURS: Readonly<Record<string, string>> = { AM: '#c62828', EM: '#ef6c00', TEST: '#ef6c00', EM1: '#ef6c00', EM2: '#ef6c00', EM3: '#ef6c00' };

/**
 * operator §9: 'level maximum is vat_max_height/10'. Our vat_max_height is in millimetres, so the
 * ring's scale is in centimetres (a 2000 mm vat's ring ends at 200 cm) while the reading stays in
 * the title's millimetres; the ring fills by the same share of the vat either way (decision 061).
 */
export const levelGaugeMax = (vatMaxHeight: number): number => vatMaxHeight / 10;
export const LEVEL_SCALE = { per: 10, unit: 'cm' } as const;
