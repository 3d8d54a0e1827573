import { AdminGetUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
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
 * dropped here. It is told apart by having no subject (the trigger words no sign-up message), not
 * by its place in line: the verification email that follows it always carries one.
 *
 * Cognito gives the trigger the user's attributes (the greeting names them), so the message is
 * worded again with the attributes the pool holds, read with AdminGetUser as an operator would.
 */
interface PoolUsers {
  /** The user the address belongs to: their username and attributes; undefined when there is none. */
  userOf(email: string): Promise<{ readonly userName: string; readonly attributes: Readonly<Record<string, string>> } | undefined>;
}

export const poolUsers = (client: CognitoIdentityProviderClient, userPoolId: string): PoolUsers => ({
  async userOf(email) {
    try {
      // The pool signs in by email, so AdminGetUser takes the address as the username.
      const user = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
      return {
        userName: user.Username ?? email,
        attributes: Object.fromEntries((user.UserAttributes ?? []).map((a) => [a.Name ?? '', a.Value ?? ''])),
      };
    } catch (err) {
      if ((err as { name?: string }).name === 'UserNotFoundException') return undefined;
      throw err;
    }
  },
});

export const cognitoMessages = (outbox: SnsOutbox, webUrl: string, users: PoolUsers) => {
  /** email → phone of a phone-number code on its way. */
  const textsDue = new Map<string, string>();
  /** Addresses just signed up, whose subject-less code is cognito-local's sign-up code, which AWS does not send. */
  const signUpCodes = new Set<string>();
  const wording = customMessage(webUrl);

  const reworded = async (triggerSource: string, destination: string, code: string, clientMetadata?: Record<string, string>) => {
    const user = await users.userOf(destination);
    const event = {
      triggerSource,
      userName: user?.userName ?? destination,
      request: { userAttributes: user?.attributes ?? { email: destination }, codeParameter: code, usernameParameter: null, linkParameter: null, ...(clientMetadata ? { clientMetadata } : {}) },
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
      // Any later code for the address ends the wait for the sign-up's own: it came first, or never.
      const signedUp = signUpCodes.delete(delivered.destination.toLowerCase());
      if (signedUp && !delivered.subject) return undefined;
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
