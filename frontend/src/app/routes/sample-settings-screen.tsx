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

export function SampleSettingsScreen() {
  return (
    <section className="sample-settings" aria-labelledby="sample-settings-title">
      <h2 id="sample-settings-title">Settings (sample)</h2>
      <p>Sample data only: these tables show the layout of a settings screen and are no farm's herds or staff.</p>
      <table aria-label="Herds">
        <caption>Herds</caption>
        <thead>
          <tr>
            <th scope="col">Herd</th>
            <th scope="col">Cows</th>
            <th scope="col">Milking</th>
            <th scope="col">Vat</th>
          </tr>
        </thead>
        <tbody>
          {SAMPLE_HERDS.map((h) => (
            <tr key={h.herd}>
              <td>{h.herd}</td>
              <td>{h.cows}</td>
              <td>{h.milking}</td>
              <td>{h.vat}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table aria-label="Staff">
        <caption>Staff</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Phone</th>
          </tr>
        </thead>
        <tbody>
          {SAMPLE_STAFF.map((s) => (
            <tr key={s.name}>
              <td>{s.name}</td>
              <td>{s.role}</td>
              <td>{s.phone}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
