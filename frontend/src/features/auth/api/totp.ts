import { fetchMFAPreference, setUpTOTP, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import QRCode from 'qrcode';
import { settingProfileContracts as c } from '@shared/api/actions/profile';
import type { ApiClient } from '../../../lib/api-client';
import type { ApiError } from '../../../lib/api-error';
import { authReady } from '../../../lib/auth-session';
import { signInErrorMessage } from './sign-in';

/** The name an authenticator app lists the account under. */
const TOTP_ISSUER = 'Vat-Man';

export interface TotpEnrolment {
  /** The base32 secret, for typing into an app that cannot scan. */
  readonly secret: string;
  /** The otpauth:// URI as a QR code picture (an SVG data URL). */
  readonly qrCode: string;
}

/** AssociateSoftwareToken: a new secret for the signed-in person, as text and QR code. */
export const startTotpEnrolment = async (account: string): Promise<TotpEnrolment> => {
  // Amplify loads after the page (lib/auth-session.ts): configured before it is asked.
  await authReady();
  const setup = await setUpTOTP();
  const uri = setup.getSetupUri(TOTP_ISSUER, account).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret: setup.sharedSecret, qrCode: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` };
};

/** VerifySoftwareToken with the app's first code, then TOTP as the person's sign-in factor (SetUserMFAPreference). */
export const finishTotpEnrolment = async (code: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }> => {
  try {
    await authReady();
    await verifyTOTPSetup({ code });
    await updateMFAPreference({ totp: 'PREFERRED' });
    return { ok: true };
  } catch (err) {
    return { ok: false, message: signInErrorMessage(err) };
  }
};

/** Whether Cognito already asks this person for an app at sign-in (set up earlier, confirmation still due). */
export const hasAuthenticatorApp = async (): Promise<boolean> => {
  await authReady();
  return (await fetchMFAPreference()).enabled?.includes('TOTP') ?? false;
};

/** USER_AUTHENTICATOR_CONFIRM_SEND: the confirmation code to the person's verified email. */
export const sendAuthenticatorCode = (client: ApiClient, onError: (error: ApiError) => void) => client.call(c.USER_AUTHENTICATOR_CONFIRM_SEND, {}, { onError });

/** USER_AUTHENTICATOR_CONFIRM: the emailed code; the server then signs the person out everywhere. */
export const confirmAuthenticator = (client: ApiClient, code: string, onError: (error: ApiError) => void) => client.call(c.USER_AUTHENTICATOR_CONFIRM, { code }, { onError });
