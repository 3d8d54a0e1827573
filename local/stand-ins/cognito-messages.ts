import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { AUTHENTICATOR_SUBJECT, customMessage, RESET_SUBJECT, VERIFY_EMAIL_SUBJECT, verifyPhoneText } from '../../lambdas/triggers/cognito-messages';
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
 *
 * cognito-local also needs the pool's AutoVerifiedAttributes to deliver any attribute code, and so
 * sends a sign-up code as well; the pool in AWS auto-verifies nothing and sends none (the account
 * is confirmed by the API and the email verified by the link USER_SIGN_UP sends), so that one is
 * dropped here.
 */
export const cognitoMessages = (outbox: SnsOutbox, webUrl: string) => {
  /** email → phone of a phone-number code on its way. */
  const textsDue = new Map<string, string>();
  /** Addresses whose next code is cognito-local's sign-up code, which AWS does not send. */
  const signUpCodes = new Set<string>();
  const wording = customMessage(webUrl);

  const reworded = async (triggerSource: string, destination: string, code: string, clientMetadata?: Record<string, string>) => {
    const event = {
      triggerSource,
      userName: destination,
      request: { userAttributes: { email: destination }, codeParameter: code, usernameParameter: null, linkParameter: null, ...(clientMetadata ? { clientMetadata } : {}) },
      response: { smsMessage: null, emailMessage: null, emailSubject: null },
    } as unknown as CustomMessageTriggerEvent;
    return (await wording(event)).response;
  };

  return {
    /** Called with each CustomMessage event the local Lambda stand-in runs. */
    noteTrigger(event: CustomMessageTriggerEvent): void {
      const { userAttributes, clientMetadata } = event.request;
      if (event.triggerSource === 'CustomMessage_SignUp' && userAttributes.email) signUpCodes.add(userAttributes.email.toLowerCase());
      if (event.triggerSource !== 'CustomMessage_VerifyUserAttribute' || clientMetadata?.attribute !== 'phone_number') return;
      const email = userAttributes.email?.toLowerCase();
      const phone = userAttributes.phone_number;
      if (email && phone) textsDue.set(email, phone);
    },

    /** The message as the outbox keeps it; undefined for a code AWS would not send. */
    async deliver(delivered: DeliveredCode): Promise<OutboxMessage | undefined> {
      if (signUpCodes.delete(delivered.destination.toLowerCase())) return undefined;
      const phone = textsDue.get(delivered.destination.toLowerCase());
      if (phone) {
        textsDue.delete(delivered.destination.toLowerCase());
        return outbox.append({ channel: 'sms', to: phone, message: verifyPhoneText(delivered.code) });
      }
      if (delivered.subject === RESET_SUBJECT || delivered.subject === VERIFY_EMAIL_SUBJECT || delivered.subject === AUTHENTICATOR_SUBJECT) {
        const source = delivered.subject === RESET_SUBJECT ? 'CustomMessage_ForgotPassword' : 'CustomMessage_VerifyUserAttribute';
        const out = await reworded(source, delivered.destination, delivered.code, delivered.subject === AUTHENTICATOR_SUBJECT ? { purpose: 'authenticator' } : undefined);
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
