import type { ComplianceRecord } from '@shared/api/actions/farmer-compliance';
import { ScrollRegion } from '../../../components/scroll-region';
import { formatWhen } from '../../../lib/time-format';
import { exceptionText, ruleTime, STATUS_TEXT, verdictText, type ComplianceSummary } from '../utils/record';

/** The record's summary: counts by verdict and the worst milkings, times on the farm's clock. */
export function ComplianceSummaryView({ summary, timeZone }: { readonly summary: ComplianceSummary; readonly timeZone: string }) {
  return (
    <section className="compliance__summary" aria-label="Summary">
      <h2>Summary</h2>
      <dl>
        <dt>Milkings</dt>
        <dd>{summary.milkings}</dd>
        <dt>Compliant</dt>
        <dd>
          {summary.compliant}
          {summary.percent !== null && ` (${summary.percent.toFixed(1)} %)`}
        </dd>
        <dt>Failed</dt>
        <dd>{summary.failed}</dd>
        <dt>Not decided</dt>
        <dd>{summary.undecided}</dd>
      </dl>
      {summary.worst.length > 0 && (
        <>
          <h3>Worst cases</h3>
          <ul>
            {summary.worst.map((m) => (
              <li key={m._id}>
                Vat {m.vat_number}, {formatWhen(m.start, timeZone)}: {verdictText(m)}
                {m.peak_c !== null && `, up to ${m.peak_c.toFixed(1)} °C`}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

interface VatProps {
  readonly vat: ComplianceRecord['vats'][number];
  readonly rules: ComplianceRecord['rules'];
  readonly timeZone: string;
}

/** One vat's milkings with each §9 rule's status and time, the exceptions under each milking. */
export function ComplianceVatTable({ vat, rules, timeZone }: VatProps) {
  return (
    <section className="compliance__vat" aria-label={`Vat ${vat.vat_number}`}>
      <h2>Vat {vat.vat_number}</h2>
      {vat.milkings.length === 0 ? (
        <p className="page__note">No milkings in this period.</p>
      ) : (
        <ScrollRegion className="compliance__scroll" label={`Vat ${vat.vat_number} milkings`}>
          <table className="compliance__table">
            <thead>
              <tr>
                <th scope="col">Milking</th>
                {rules.map((r) => (
                  <th key={r.rule} scope="col" title={r.text}>
                    {r.rule}
                  </th>
                ))}
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {vat.milkings.map((m) => (
                <tr key={m._id} className={`compliance__row--${m.verdict}`}>
                  <th scope="row">
                    {formatWhen(m.start, timeZone)}
                    <span className="compliance__end"> to {m.end ? formatWhen(m.end, timeZone) : 'still milking'}</span>
                    {m.exceptions.map((e) => (
                      <span key={`${e.kind}-${e.start}`} className="compliance__exception">
                        {exceptionText(e, timeZone)}
                      </span>
                    ))}
                  </th>
                  {m.rules.map((r) => (
                    <td key={r.rule} className={`compliance__rule--${r.status}`}>
                      {STATUS_TEXT[r.status]}
                      {ruleTime(r, timeZone) && <span className="compliance__time">{ruleTime(r, timeZone)}</span>}
                    </td>
                  ))}
                  <td>{verdictText(m)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
