import { PACKAGES, SUPPLIER_CODES, type Package, type Supplier } from '@shared/entities/farm';
import { DISPLAY_COUNTS, VAT_COUNTS, type DeviceForm, type FormProblems } from '../utils/new-install-form';
import { Field } from './field';

const ZONES = ['Pacific/Auckland', 'Pacific/Chatham'] as const;

/** New Install's Device tab (operator §2, §5): the unit, the farm it goes to, how many vats and displays. */
export function NewInstallDeviceFields({ value: device, problems, onChange }: { readonly value: DeviceForm; readonly problems: FormProblems; readonly onChange: (device: DeviceForm) => void }) {
  return (
    <div className="installer__grid">
      <Field label="IMEI" problem={problems['device.imei']}>
        {(a) => <input {...a} type="text" inputMode="numeric" value={device.imei} onChange={(e) => onChange({ ...device, imei: e.target.value })} />}
      </Field>
      <Field label="Dairy Supplier" problem={problems['device.dairySupplier']}>
        {(a) => (
          <select {...a} value={device.dairySupplier} onChange={(e) => onChange({ ...device, dairySupplier: e.target.value as Supplier })}>
            {SUPPLIER_CODES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Supply Number" problem={problems['device.supplyNumber']}>
        {(a) => <input {...a} type="text" inputMode="numeric" value={device.supplyNumber} onChange={(e) => onChange({ ...device, supplyNumber: e.target.value })} />}
      </Field>
      <Field label="Product Variant" problem={problems['device.productVariant']}>
        {(a) => (
          <select {...a} value={device.productVariant} onChange={(e) => onChange({ ...device, productVariant: e.target.value as Package })}>
            {PACKAGES.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Number of Vats" problem={problems['device.numVats']}>
        {(a) => (
          <select {...a} value={device.numVats} onChange={(e) => onChange({ ...device, numVats: e.target.value })}>
            {VAT_COUNTS.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Number of Displays" problem={undefined}>
        {(a) => (
          <select {...a} value={device.numDisplays} onChange={(e) => onChange({ ...device, numDisplays: e.target.value })}>
            {DISPLAY_COUNTS.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Time Zone" problem={undefined}>
        {(a) => (
          <select {...a} value={device.timezone} onChange={(e) => onChange({ ...device, timezone: e.target.value })}>
            {ZONES.map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
        )}
      </Field>
      <label className="installer__check">
        <input type="checkbox" checked={device.lowConnectivity} onChange={(e) => onChange({ ...device, lowConnectivity: e.target.checked })} />
        Select If Low Connectivity Install
      </label>
    </div>
  );
}
