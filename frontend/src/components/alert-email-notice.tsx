import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MSG_ALERT_EMAIL_NOT_CONFIRMED, MSG_EMAIL_SENT, settingProfileContracts as c } from '@shared/api/actions/profile';
import type { ApiClient } from '../lib/api-client';
import { useApiClient } from '../lib/api-client-provider';
import { useSnackbar } from './snackbar';
import './alert-email-notice.css';

/**
 * The caller's alert email subscription: confirmed or not, read from SNS. A failed read
 * shows no notice rather than an error (the page's own content matters more).
 */
const alertEmailStatusQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: ['profile', 'alert-email'] as const,
    queryFn: ({ signal }) => client.call(c.USER_ALERT_EMAIL_STATUS, {}, { signal, onError: () => undefined }),
  });
/** Subscribes the address again: SNS (the outbox locally) sends a new confirmation email. */
const resendAlertEmail = (client: ApiClient) => client.call(c.USER_ALERT_EMAIL_RESEND, {});


/**
 * 'Alert email not confirmed' with a Resend button, on the profile and the notification
 * settings: alert email reaches the person only once they follow the link in the subscription
 * confirmation email; until then (or once that link has expired) this says so. Nothing shows
 * while the status is unknown or confirmed.
 */
export function AlertEmailNotice() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const query = useQuery(alertEmailStatusQuery(client));
  const resend = useMutation({
    mutationFn: () => resendAlertEmail(client),
    onSuccess: (answer) => {
      snackbar.show(answer.status === 'confirmed' ? 'Your alert email is confirmed.' : MSG_EMAIL_SENT, 'success');
      queryClient.setQueryData(alertEmailStatusQuery(client).queryKey, answer);
    },
  });
  const status = query.data?.status;
  if (!status || status === 'confirmed') return null;
  return (
    <div className="alert-email-notice" role="status">
      <p>
        <strong>{MSG_ALERT_EMAIL_NOT_CONFIRMED}</strong>{' '}
        {status === 'expired'
          ? 'The confirmation link has expired, so alerts are not emailed to you.'
          : 'Alerts are not emailed to you until you follow the link in the email "AWS Notification - Subscription Confirmation".'}
      </p>
      <button type="button" className="button" onClick={() => resend.mutate()} disabled={resend.isPending}>
        Resend
      </button>
    </div>
  );
}
