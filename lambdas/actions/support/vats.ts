import type { Device } from '../../../shared/entities/device';

/** A vat as the dashboard shows it (farmer spec §3 Vat). */
export const toVat = (d: Device) => ({
  _id: d._id,
  name: d.name,
  vat_number: d.vat_number,
  vat_size: d.vat_size,
  vat_auto: d.vat_auto,
  last_updated: d.last_updated ?? null,
});
