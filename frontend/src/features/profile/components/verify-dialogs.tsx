import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { MSG_EMAIL_SENT, MSG_PHONE_VERIFIED, MSG_SMS_SENT, VERIFICATION_CODE_LENGTH } from '@shared/api/actions/profile';
import { Dialog } from '../../../components/dialog';
import { useSnackbar } from '../../../components/snackbar';
import { useApiClient } from '../../../lib/api-client-provider';
import { checkPhoneCode, refreshPerson, sendEmailCode, sendPhoneCode } from '../api/profile';

/**
 * The code box's rule (farmer §5, operator §5): digits only (no minus sign, no decimals), at most
 * six; anything else typed or pasted is dropped.
 */
export const codeInput = (typed: string): string => typed.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH);

/** 'Verify my Email' (farmer §2.10): Cognito emails a link to the profile page; the dialog closes once it is sent. */
export function VerifyEmailDialog({ onClose }: { readonly onClose: () => void }) {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const send = useMutation({
    mutationFn: () => sendEmailCode(client),
    onSuccess: () => {
      snackbar.show(MSG_EMAIL_SENT, 'success');
      onClose();
    },
  });
  return (
    <Dialog
      title="Verify my Email"
      onDismiss={onClose}
      actions={
        <>
          <button type="button" className="button button--text" onClick={onClose}>
            Not now
          </button>
          <button type="button" className="button button--primary" disabled={send.isPending} onClick={() => send.mutate()} data-autofocus>
            Send a Email to me
          </button>
        </>
      }
    >
      We will email you a link. Open it while you are signed in and your email is verified.
    </Dialog>
  );
}

/**
 * 'Verify my Phone Number' (farmer §2.10): 'Send a Code to me' texts a code; the box checks it by
 * itself once six digits are in. A wrong code is announced ('Phone verification failed') and cleared.
 */
export function VerifyPhoneDialog({ onClose }: { readonly onClose: () => void }) {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const codeId = useId();
  const send = useMutation({
    mutationFn: () => sendPhoneCode(client),
    onSuccess: () => snackbar.show(MSG_SMS_SENT, 'success'),
  });
  const check = useMutation({
    mutationFn: (value: string) => checkPhoneCode(client, value),
    onSuccess: () => {
      snackbar.show(MSG_PHONE_VERIFIED, 'success');
      void refreshPerson(queryClient);
      onClose();
    },
    // The server's 422 says 'Phone verification failed' in the snackbar; the box empties for another try.
    onError: () => setCode(''),
  });
  const change = (typed: string) => {
    const next = codeInput(typed);
    setCode(next);
    if (next.length === VERIFICATION_CODE_LENGTH && !check.isPending) check.mutate(next);
  };
  return (
    <Dialog
      title="Verify my Phone Number"
      onDismiss={onClose}
      actions={
        <>
          <button type="button" className="button button--text" onClick={onClose}>
            Not now
          </button>
          <button type="button" className="button button--primary" disabled={send.isPending} onClick={() => send.mutate()}>
            Send a Code to me
          </button>
        </>
      }
    >
      <div className="form__field">
        <label htmlFor={codeId}>Please enter verification code</label>
        <input
          id={codeId}
          className="verify-code"
          value={code}
          onChange={(event) => change(event.target.value)}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={VERIFICATION_CODE_LENGTH}
          disabled={check.isPending}
          data-autofocus
        />
      </div>
    </Dialog>
  );
}
