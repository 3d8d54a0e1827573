import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { customMessage } from '../../lambdas/triggers/reset-email';
import type { DeliveredCode } from './cognito';
import type { OutboxMessage, SnsOutbox } from './sns-outbox';

const RESET_SUBJECT = 'Reset your Vat-Man password';

/**
 * Cognito sends its own emails in AWS. cognito-local only prints them, so the local stack puts
 * each one in the outbox: a password reset as the CustomMessage trigger words it (the same
 * function, given the real code), any other code as a plain message.
 */
export const deliverCognitoEmail = async (outbox: SnsOutbox, webUrl: string, delivered: DeliveredCode): Promise<OutboxMessage> => {
  if (delivered.subject === RESET_SUBJECT) {
    const event = {
      triggerSource: 'CustomMessage_ForgotPassword',
      userName: delivered.destination,
      request: { userAttributes: { email: delivered.destination }, codeParameter: delivered.code, usernameParameter: null, linkParameter: null },
      response: { smsMessage: null, emailMessage: null, emailSubject: null },
    } as unknown as CustomMessageTriggerEvent;
    const out = await customMessage(webUrl)(event);
    return outbox.append({
      channel: 'email',
      to: delivered.destination,
      subject: out.response.emailSubject ?? RESET_SUBJECT,
      message: (out.response.emailMessage ?? '').replace(/<br>\n?/g, '\n'),
    });
  }
  return outbox.append({ channel: 'email', to: delivered.destination, subject: 'Your Vat-Man verification code', message: `Your verification code is ${delivered.code}` });
};
