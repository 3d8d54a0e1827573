import { MAX_DISPLAYS, MAX_VATS, NEW_INSTALL_OCLOCK, REQUIRED_FIELD } from '@shared/api/actions/installer';
import { DAIRY_COMPANY_SUPPLIER, PACKAGES, type Package, type Supplier } from '@shared/entities/farm';
import { capacitiesOf, heightOf, volumeOfLabel } from '@shared/installer/height-table';

/** One vat tab of New Install (operator §2, §5). */
export interface VatForm {
  /** The manual vat input toggle: off, diameter and capacity come from the table and the height follows. */
  manual: boolean;
  diameter: string;
  /** The capacity as chosen ('18000 Sidewall') or typed. */
  capacity: string;
  /** Typed when manual; derived from the table otherwise. */
  height: string;
  manufacturer: string;
  serial: string;
  oclock: string;
  radarSerial: string;
  auto: boolean;
}

export interface DeviceForm {
  imei: string;
  dairySupplier: Supplier | '';
  supplyNumber: string;
  productVariant: Package | '';
  numVats: string;
  numDisplays: string;
  lowConnectivity: boolean;
  timezone: string;
}

/** §5 defaults: supplier FON, variant Vat-Man Lite, 1 vat, 0 displays. */
export const DEFAULT_DEVICE: DeviceForm = {
  imei: '',
  dairySupplier: DAIRY_COMPANY_SUPPLIER,
  supplyNumber: '',
  productVariant: PACKAGES[0],
  numVats: '1',
  numDisplays: '0',
  lowConnectivity: false,
  timezone: 'Pacific/Auckland',
};
export const NEW_VAT: VatForm = { manual: false, diameter: '', capacity: '', height: '', manufacturer: '', serial: '', oclock: String(NEW_INSTALL_OCLOCK[0]), radarSerial: '', auto: false };
export const VAT_COUNTS = Array.from({ length: MAX_VATS }, (_, i) => i + 1);
export const DISPLAY_COUNTS = Array.from({ length: MAX_DISPLAYS + 1 }, (_, i) => i);
export { NEW_INSTALL_OCLOCK };

/** The capacity choices of a diameter on New Install (6800 L included). */
export const capacityChoices = (diameter: string): string[] =>
  capacitiesOf(Number(diameter), 'new').map((r) => (r.sidewall ? `${r.volume} Sidewall` : String(r.volume)));

/** The vat's height: typed when manual, else the table's for its diameter and capacity ('' until both are chosen). */
export const vatHeight = (v: VatForm): string => (v.manual ? v.height : String(heightOf(Number(v.diameter), v.capacity) ?? ''));

const isBlank = (s: string) => s.trim() === '';
const negative = (s: string) => !isBlank(s) && !(Number(s) >= 0);

/** Which fields are wrong: `device.<name>` or `vat<n>.<name>`; each shows 'Required Field' (or the number rule). */
export type FormProblems = Record<string, string>;

/** §5: IMEI, supplier, supply number, variant and vat count required; each chosen vat's diameter, capacity, height, radar serial. */
export const checkNewInstall = (device: DeviceForm, vats: readonly VatForm[]): FormProblems => {
  const problems: FormProblems = {};
  for (const f of ['imei', 'dairySupplier', 'supplyNumber', 'productVariant', 'numVats'] as const) if (isBlank(device[f])) problems[`device.${f}`] = REQUIRED_FIELD;
  const count = Number(device.numVats) || 0;
  vats.slice(0, count).forEach((v, i) => {
    const key = `vat${i + 1}`;
    const height = vatHeight(v);
    if (isBlank(v.diameter)) problems[`${key}.diameter`] = REQUIRED_FIELD;
    if (isBlank(v.capacity)) problems[`${key}.capacity`] = REQUIRED_FIELD;
    if (isBlank(height)) problems[`${key}.height`] = REQUIRED_FIELD;
    if (isBlank(v.radarSerial)) problems[`${key}.radarSerial`] = REQUIRED_FIELD;
    // §5: diameter and height accept only values >= 0.
    for (const [name, value] of [['diameter', v.diameter], ['height', height], ['capacity', v.manual ? v.capacity : '0']] as const) if (negative(value)) problems[`${key}.${name}`] = 'Must be 0 or more';
  });
  return problems;
};

/** The NEW_INSTALL fields (operator §3 'New install payload fields'): volume without ' Sidewall'. */
export const newInstallFields = (device: DeviceForm, vats: readonly VatForm[]): Record<string, string | number | boolean> => {
  const fields: Record<string, string | number | boolean> = {
    imei: device.imei.trim(),
    dairySupplier: device.dairySupplier,
    supplyNumber: device.supplyNumber.trim().toUpperCase(),
    productVariant: device.productVariant,
    numVats: Number(device.numVats),
    numDisplays: Number(device.numDisplays),
    lowConnectivity: device.lowConnectivity,
    timezone: device.timezone,
  };
  vats.slice(0, Number(device.numVats)).forEach((v, i) => {
    const n = i + 1;
    Object.assign(fields, {
      [`vat${n}Diameter`]: v.diameter,
      [`vat${n}Volume`]: String(volumeOfLabel(v.capacity)),
      [`vat${n}Height`]: vatHeight(v),
      [`vat${n}Manufacturer`]: v.manufacturer,
      [`vat${n}Serial`]: v.serial,
      [`vat${n}OClock`]: v.oclock,
      [`vat${n}RadarSerial`]: v.radarSerial,
      [`vat${n}Auto`]: v.auto,
    });
  });
  return fields;
};
