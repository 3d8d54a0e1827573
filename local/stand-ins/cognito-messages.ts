import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { customMessage, RESET_SUBJECT, VERIFY_EMAIL_SUBJECT, verifyPhoneText } from '../../lambdas/triggers/cognito-messages';
import type { DeliveredCode } from './cognito';
import type { OutboxMessage, SnsOutbox } from './sns-outbox';

/**
 * Cognito sends its own emails and texts in AWS. cognito-local only prints them, so the local
 * stack puts each one in the outbox, worded as the CustomMessage trigger words it (the same
 * function, given the real code).
 *
 * cognito-local sends every attribute code to the email (its pool verifies email only) whatever
 * attribute was asked for; AWS texts a phone code. The account adapter names the attribute in the
 * call's ClientMetadata, which reaches the CustomMessage trigger: `noteTrigger` sees it there, and
 * the code printed next for that person is delivered as a text to their phone instead.
 */
export const cognitoMessages = (outbox: SnsOutbox, webUrl: string) => {
  /** email → phone of a phone-number code on its way. */
  const textsDue = new Map<string, string>();
  const wording = customMessage(webUrl);

  const reworded = async (triggerSource: string, destination: string, code: string) => {
    const event = {
      triggerSource,
      userName: destination,
      request: { userAttributes: { email: destination }, codeParameter: code, usernameParameter: null, linkParameter: null },
      response: { smsMessage: null, emailMessage: null, emailSubject: null },
    } as unknown as CustomMessageTriggerEvent;
    return (await wording(event)).response;
  };

  return {
    /** Called with each CustomMessage event the local Lambda stand-in runs. */
    noteTrigger(event: CustomMessageTriggerEvent): void {
      const { userAttributes, clientMetadata } = event.request;
      if (event.triggerSource !== 'CustomMessage_VerifyUserAttribute' || clientMetadata?.attribute !== 'phone_number') return;
      const email = userAttributes.email?.toLowerCase();
      const phone = userAttributes.phone_number;
      if (email && phone) textsDue.set(email, phone);
    },

    async deliver(delivered: DeliveredCode): Promise<OutboxMessage> {
      const phone = textsDue.get(delivered.destination.toLowerCase());
      if (phone) {
        textsDue.delete(delivered.destination.toLowerCase());
        return outbox.append({ channel: 'sms', to: phone, message: verifyPhoneText(delivered.code) });
      }
      if (delivered.subject === RESET_SUBJECT || delivered.subject === VERIFY_EMAIL_SUBJECT) {
        const source = delivered.subject === RESET_SUBJECT ? 'CustomMessage_ForgotPassword' : 'CustomMessage_VerifyUserAttribute';
        const out = await reworded(source, delivered.destination, delivered.code);
        return outbox.append({
          channel: 'email',
          to: delivered.destination,
          subject: out.emailSubject ?? delivered.subject,
          message: (out.emailMessage ?? '').replace(/<br>\n?/g, '\n'),
        });
      }
      return outbox.append({ channel: 'email', to: delivered.destination, subject: 'Your Vat-Man verification code', message: `Your verification code is ${delivered.code}` });
    },
  };
};
