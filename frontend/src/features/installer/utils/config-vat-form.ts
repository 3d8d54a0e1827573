import { REQUIRED_FIELD, type VatDevice } from '@shared/api/actions/installer';
import { capacitiesOf, vatLabel } from '@shared/installer/height-table';
import { vatHeight, type VatForm } from './new-install-form';

/** A vat tab of Installer Vat Settings: New Install's vat fields, the stored device, and the radar's manual input. */
export interface ConfigVatForm extends VatForm {
  deviceId: string;
  /** On, the wedge height is given; off, the O'Clock position (operator §5). */
  manualRadar: boolean;
  wedgeHeight: string;
}

/** A stored vat as its tab shows it: a table vat keeps the toggle off, any other opens in manual input. */
export const vatFormOf = (d: VatDevice): ConfigVatForm => {
  const row = capacitiesOf(d.vat_diameter, 'config').find((r) => r.volume === d.vat_size && r.height === d.vat_max_height);
  return {
    deviceId: d._id,
    manual: !row,
    diameter: String(d.vat_diameter),
    capacity: row ? vatLabel(row) : String(d.vat_size),
    height: String(d.vat_max_height),
    manufacturer: d.vat_manufacturer,
    serial: d.vat_serial,
    auto: d.vat_auto,
    manualRadar: d.oclock === null,
    radarSerial: d.radar_serial,
    wedgeHeight: String(d.wedgeHeight),
    oclock: d.oclock === null ? '' : String(d.oclock),
  };
};
export const EMPTY_VAT: ConfigVatForm = { deviceId: '', manual: false, diameter: '', capacity: '', height: '', manufacturer: '', serial: '', auto: false, manualRadar: false, radarSerial: '', wedgeHeight: '', oclock: '' };

/** §5: diameter, capacity, height and radar serial required; diameter, height, wedge height ≥ 0; O'Clock 0-12. */
export const vatProblems = (v: ConfigVatForm): Record<string, string> => {
  const p: Record<string, string> = {};
  const blank = (s: string) => s.trim() === '';
  if (blank(v.diameter)) p.diameter = REQUIRED_FIELD;
  if (blank(v.capacity)) p.capacity = REQUIRED_FIELD;
  if (blank(vatHeight(v))) p.height = REQUIRED_FIELD;
  if (blank(v.radarSerial)) p.radarSerial = REQUIRED_FIELD;
  // The server takes the wedge height (manual radar) or the O'Clock position: the one shown is needed.
  if (v.manualRadar && blank(v.wedgeHeight)) p.wedgeHeight = REQUIRED_FIELD;
  if (!v.manualRadar && blank(v.oclock)) p.oclock = REQUIRED_FIELD;
  for (const [k, s] of [['diameter', v.diameter], ['height', vatHeight(v)], ...(v.manualRadar ? [['wedgeHeight', v.wedgeHeight] as const] : [])] as const) if (!blank(s) && !(Number(s) >= 0)) p[k] = 'Must be 0 or more';
  if (!v.manualRadar && !blank(v.oclock) && !(Number.isInteger(Number(v.oclock)) && Number(v.oclock) >= 0 && Number(v.oclock) <= 12)) p.oclock = 'Must be 0 to 12';
  return p;
};
