import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { RESET_CODE_PLACEHOLDER, resetLink } from '../../shared/api/actions/user';
import { escapeHtml } from '../../shared/text/html';

export const RESET_SUBJECT = 'Reset your Vat-Man password';
export const VERIFY_EMAIL_SUBJECT = 'Verify your Vat-Man email';
export const AUTHENTICATOR_SUBJECT = 'Confirm your Vat-Man authenticator app';
/** The ClientMetadata `purpose` of the authenticator's confirmation code (lambdas/adapters/cognito/account.ts). */
const AUTHENTICATOR_PURPOSE = 'authenticator';

/** The profile page's verification link (farmer §2.10: a verification token in the route checks the email). */
export const verifyEmailLink = (webUrl: string, code: string): string => `${webUrl.replace(/\/+$/, '')}/dts/user/profile/${code}`;

/** The text with the phone's code (farmer §2.10: the code is 6 digits and checks itself). */
export const verifyPhoneText = (code: string): string => `Your Vat-Man verification code is ${code}. Enter it on your profile page.`;

// The name is the user's own words, stored before names were limited to letters too: Cognito sends
// these emails as HTML, so it is escaped, or a name could carry a link of its own into the email.
const greeting = (event: CustomMessageTriggerEvent) => `Kia ora ${escapeHtml(event.request.userAttributes.given_name ?? '')},`.replace(' ,', ',');

/**
 * Cognito CustomMessage trigger: Cognito's emails carry links into the web app instead of bare
 * codes. Cognito puts the code where `{####}` stands (the real code locally, from cognito-local).
 * - ForgotPassword: a link to /dts/password/reset/{token} (farmer §2.1);
 * - VerifyUserAttribute: the email a link to /dts/user/profile/{code}, the text the code itself.
 * Other messages keep Cognito's defaults. The email is HTML (lines end in `<br>`): every value in it
 * is escaped. The text is plain and is not.
 */
export const customMessage = (webUrl: string) => async (event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> => {
  const code = event.request.codeParameter || RESET_CODE_PLACEHOLDER;
  if (event.triggerSource === 'CustomMessage_ForgotPassword') {
    const email = event.request.userAttributes.email ?? event.userName;
    event.response.emailSubject = RESET_SUBJECT;
    event.response.emailMessage = [
      greeting(event),
      '',
      'Someone asked to reset the password of your Vat-Man account. To choose a new password, open:',
      escapeHtml(resetLink(webUrl, email, code)),
      '',
      'If it was not you, ignore this email: your password stays as it is.',
    ].join('<br>\n');
  } else if (event.triggerSource === 'CustomMessage_VerifyUserAttribute' && event.request.clientMetadata?.purpose === AUTHENTICATOR_PURPOSE) {
    // A code to type, not a link: it confirms the app on the screen where it was just set up.
    event.response.emailSubject = AUTHENTICATOR_SUBJECT;
    event.response.emailMessage = [
      greeting(event),
      '',
      'An authenticator app was just set up for signing in to your Vat-Man account. If it was you, enter this code on that screen:',
      code,
      '',
      'If it was not you, do not enter the code anywhere and change your password: without the code the app is not confirmed.',
    ].join('<br>\n');
  } else if (event.triggerSource === 'CustomMessage_VerifyUserAttribute') {
    event.response.emailSubject = VERIFY_EMAIL_SUBJECT;
    event.response.emailMessage = [
      greeting(event),
      '',
      'To verify the email address of your Vat-Man account, open this link while you are signed in:',
      escapeHtml(verifyEmailLink(webUrl, code)),
      '',
      'If you did not ask for it, ignore this email.',
    ].join('<br>\n');
    event.response.smsMessage = verifyPhoneText(code);
  }
  return event;
};
