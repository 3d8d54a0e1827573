import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useOutletContext } from 'react-router-dom';
import type { DairyReport, VatLog } from '@shared/api/actions/farmer-log-fonterra';
import { withTemperatureDecimals } from '@shared/dairy-company/payloads';
import type { Farm } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';
import { useSnackbar } from '../../../components/snackbar';
import { useApiClient } from '../../../lib/api-client-provider';
import { dairyLogQuery, resendRefused } from '../api/dairy-log';
import './dairy-log.css';

/** What the page reads from the shell's outlet context (the shell's contract, not its code). */
interface DairyLogContext {
  readonly farm: Pick<Farm, '_id'> | undefined;
  /** The signed-in user (the role from their Cognito groups): the provider's Admin may send refused reports again. */
  readonly user?: Pick<User, 'role'>;
}

const RESEND_LABEL = 'Send refused reports again';

/** Farmer §2.15's words. */
const NO_REPORT = 'No alert report';

function Report({ heading, report }: { heading: string; report: DairyReport | undefined }) {
  return (
    <div className="dairy-log__report">
      <h3 className="dairy-log__heading">{heading}</h3>
      {report ? <pre className="dairy-log__json">{withTemperatureDecimals(JSON.stringify(report, null, 2))}</pre> : <p className="page__note">{NO_REPORT}</p>}
    </div>
  );
}

function VatReports({ log }: { log: VatLog }) {
  return (
    <section className="card dairy-log__vat" aria-label={`Vat ${log.vat}`}>
      <Report heading={`Vat ${log.vat}: Milking event`} report={log.activity.find((r) => r.kind === 'milkingevent')} />
      <Report heading="Collection event" report={log.activity.find((r) => r.kind === 'collectionevent')} />
      <Report heading="Exception event" report={log.alert[0]} />
    </section>
  );
}

/**
 * /dts/log/fonterra (farmer §2.15): what was reported to the dairy company for each vat of the
 * selected farm: the last milking, collection and exception report as JSON (the request as sent,
 * and each try with the company's answer), 'No alert report' where there is none.
 */
export function DairyLogPage() {
  const { farm, user } = useOutletContext<DairyLogContext>();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const log = useQuery({ ...dairyLogQuery(client, farm?._id ?? ''), enabled: farm !== undefined });
  const resend = useMutation({
    mutationFn: (farmId: string) => resendRefused(client, farmId),
    onSuccess: ({ requeued }) =>
      snackbar.show(requeued.length ? `${requeued.length} refused report${requeued.length === 1 ? '' : 's'} queued to be sent again.` : 'No refused reports to send again.', 'success'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['dairy-log'] }),
  });
  const anyRefused = log.data?.some((v) => [...v.activity, ...v.alert].some((r) => r.state === 'refused')) ?? false;
  return (
    <section className="page dairy-log">
      <h1 className="page__title">Dairy company event log</h1>
      {user?.role === 'Admin' && farm && anyRefused && (
        <p>
          <button type="button" className="button" disabled={resend.isPending} onClick={() => resend.mutate(farm._id)}>
            {RESEND_LABEL}
          </button>
        </p>
      )}
      {log.isPending && farm && <p className="page__note">Loading the reports…</p>}
      {log.isError && !log.data && <p className="page__note">The reports could not be loaded. Open this page again shortly.</p>}
      {log.data?.length === 0 && <p className="page__note">This farm has no vats yet.</p>}
      {log.data?.map((v) => <VatReports key={v.vat} log={v} />)}
    </section>
  );
}
