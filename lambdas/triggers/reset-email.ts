import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { RESET_CODE_PLACEHOLDER, resetLink } from '../../shared/api/actions/user';

/**
 * Cognito CustomMessage trigger: the forgot-password email carries a link to
 * /dts/password/reset/{token} (spec §2.1) instead of a bare code. Cognito puts the code where
 * `{####}` stands. Other messages keep Cognito's defaults.
 */
export const customMessage = (webUrl: string) => async (event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> => {
  if (event.triggerSource !== 'CustomMessage_ForgotPassword') return event;
  const email = event.request.userAttributes.email ?? event.userName;
  const link = resetLink(webUrl, email, event.request.codeParameter || RESET_CODE_PLACEHOLDER);
  const name = event.request.userAttributes.given_name ?? '';
  event.response.emailSubject = 'Reset your Vat-Man password';
  event.response.emailMessage = [
    `Kia ora ${name},`.replace(' ,', ','),
    '',
    'Someone asked to reset the password of your Vat-Man account. To choose a new password, open:',
    link,
    '',
    'If it was not you, ignore this email: your password stays as it is.',
  ].join('<br>\n');
  return event;
};
