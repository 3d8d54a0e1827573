import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import type { ComplianceRecord } from '@shared/api/actions/farmer-compliance';
import type { Farm } from '@shared/entities/farm';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf } from '../../../lib/api-error';
import { saveFile } from '../../../lib/save-file';
import { complianceRecordQuery } from '../api/compliance-record';
import { buildComplianceCsv, complianceFileName, periodText, sha256Hex, summaryOf } from '../utils/record';
import { ComplianceSummaryView, ComplianceVatTable } from './compliance-sections';
import './compliance.css';

/** What this screen reads from the farm tabs' outlet context (the shell's contract, not its code). */
interface ComplianceContext {
  readonly farm: Pick<Farm, '_id' | 'timezone'> | undefined;
}

const CSV_TYPE = 'text/csv;charset=utf-8';

/** The PDF: pdf-lib is loaded only now, on this page's button (never in the login or dashboard bundles). */
const savePdf = async (record: ComplianceRecord) => {
  const [{ buildCompliancePdf }, hash] = await Promise.all([import('../utils/record-pdf'), sha256Hex(buildComplianceCsv(record))]);
  const bytes = await buildCompliancePdf(record, hash);
  saveFile(bytes.slice().buffer, complianceFileName(record, 'pdf'), 'application/pdf');
};

/**
 * /dts/compliance, the tab beside Milking: the cooling compliance record of a period,
 * the current season (1 June to 31 May, the farm's days) unless the farmer picks dates. Every
 * milking per vat with the four §9 rules as the milking page judges them, the exceptions recorded
 * around it, a summary, and the record as CSV and PDF for the farm dairy assessor.
 */
export function CompliancePage() {
  const { farm } = useOutletContext<ComplianceContext>();
  const client = useApiClient();
  const [period, setPeriod] = useState<{ startDate: string; endDate: string } | null>(null);
  // The form's dates: the record's own period until the farmer edits them.
  const [dates, setDates] = useState<{ startDate: string; endDate: string } | null>(null);
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState<'' | 'pdf' | 'csv'>('');
  const [saveError, setSaveError] = useState('');
  const { data, error, isFetching } = useQuery({ ...complianceRecordQuery(client, farm?._id ?? '', period), enabled: farm !== undefined });
  const tz = data?.farm.timezone ?? farm?.timezone;
  const shownDates = dates ?? { startDate: data?.period.startDate ?? '', endDate: data?.period.endDate ?? '' };

  const show = (e: FormEvent) => {
    e.preventDefault();
    if (!shownDates.startDate || !shownDates.endDate) return setFormError('Choose both dates.');
    if (shownDates.endDate < shownDates.startDate) return setFormError('The end must not be before the start.');
    setFormError('');
    setPeriod({ ...shownDates });
  };
  const download = async (kind: 'pdf' | 'csv') => {
    if (!data) return;
    setSaving(kind);
    setSaveError('');
    try {
      if (kind === 'csv') saveFile(buildComplianceCsv(data), complianceFileName(data, 'csv'), CSV_TYPE);
      else await savePdf(data);
    } catch {
      setSaveError(`The ${kind.toUpperCase()} could not be made. Please try again.`);
    } finally {
      setSaving('');
    }
  };
  const summary = data ? summaryOf(data) : undefined;

  return (
    <section className="page compliance">
      <h1 className="page__title">Cooling compliance</h1>
      <form className="compliance__period" onSubmit={show} aria-label="Period" noValidate>
        <label>
          From
          <input type="date" value={shownDates.startDate} onChange={(e) => setDates({ ...shownDates, startDate: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={shownDates.endDate} onChange={(e) => setDates({ ...shownDates, endDate: e.target.value })} />
        </label>
        <button type="submit" className="button button--primary">
          Show
        </button>
        <button type="button" className="button" disabled={!data || saving !== ''} onClick={() => void download('pdf')}>
          {saving === 'pdf' ? 'Making PDF…' : 'Download PDF'}
        </button>
        <button type="button" className="button" disabled={!data || saving !== ''} onClick={() => void download('csv')}>
          Download CSV
        </button>
      </form>
      {formError && (
        <p className="compliance__error" role="alert">
          {formError}
        </p>
      )}
      {saveError && (
        <p className="compliance__error" role="alert">
          {saveError}
        </p>
      )}
      {error && (
        <p className="compliance__error" role="alert">
          {errorTextOf(error, 'The compliance record could not be loaded.')}
        </p>
      )}
      {isFetching && !data && <p className="page__note">Loading the record…</p>}
      {data && summary && tz && (
        <>
          <p className="page__note">
            {periodText(data)}, times on the farm's clock ({tz}). Supply number {data.farm.supply_number}.
          </p>
          <ComplianceSummaryView summary={summary} timeZone={tz} />
          <details className="compliance__rules">
            <summary>The cooling rules</summary>
            <ul>
              {data.rules.map((r) => (
                <li key={r.rule}>
                  {r.rule}: {r.text}
                </li>
              ))}
            </ul>
          </details>
          {data.vats.map((vat) => (
            <ComplianceVatTable key={vat.vat_number} vat={vat} rules={data.rules} timeZone={tz} />
          ))}
        </>
      )}
    </section>
  );
}
