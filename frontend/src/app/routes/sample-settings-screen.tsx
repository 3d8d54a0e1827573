import { DataTable, type Column } from '../../components/data-table';
/**
 * operator §2 Global elements: 'a static placeholder settings screen with sample Herds and Staff
 * tables; it is not routed and holds sample data only'. It has no route of its own: the /test page
 * shows it, labelled as sample data, so nobody takes its rows for a farm's.
 */
const SAMPLE_HERDS = [
  { herd: 'Sample herd A', cows: 320, milking: 'Twice a day', vat: 'Vat 1' },
  { herd: 'Sample herd B', cows: 180, milking: 'Once a day', vat: 'Vat 2' },
] as const;

const SAMPLE_STAFF = [
  { name: 'Sample herd manager', role: 'Herd manager', phone: '000 000 0001' },
  { name: 'Sample farm assistant', role: 'Farm assistant', phone: '000 000 0002' },
] as const;

const HERD_COLUMNS: readonly Column<(typeof SAMPLE_HERDS)[number]>[] = [
  { header: 'Herd', cell: (h) => h.herd },
  { header: 'Cows', cell: (h) => h.cows },
  { header: 'Milking', cell: (h) => h.milking },
  { header: 'Vat', cell: (h) => h.vat },
];

const STAFF_COLUMNS: readonly Column<(typeof SAMPLE_STAFF)[number]>[] = [
  { header: 'Name', cell: (m) => m.name },
  { header: 'Role', cell: (m) => m.role },
  { header: 'Phone', cell: (m) => m.phone },
];

export function SampleSettingsScreen() {
  return (
    <section className="sample-settings" aria-labelledby="sample-settings-title">
      <h2 id="sample-settings-title">Settings (sample)</h2>
      <p>Sample data only: these tables show the layout of a settings screen and are no farm's herds or staff.</p>
      <DataTable aria-label="Herds" caption="Herds" columns={HERD_COLUMNS} rows={SAMPLE_HERDS} rowKey={(h) => h.herd} />
      <DataTable aria-label="Staff" caption="Staff" columns={STAFF_COLUMNS} rows={SAMPLE_STAFF} rowKey={(m) => m.name} />
    </section>
  );
}
