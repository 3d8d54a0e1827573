import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { normaliseEmail } from '../../shared/entities/user';
import type { AlertEmailTopics } from '../ports/alert-email';
import { assertIsError } from '../lib/errors';
import type { Logger } from '../lib/logger';

/**
 * Cognito post-confirmation trigger: once an account is confirmed through ConfirmSignUp or
 * AdminConfirmSignUp, the user gets their
 * alert-email topic and subscription, so AWS's "confirm subscription" email arrives with the
 * welcome rather than with the first alert. A failure is logged and never fails the sign-up (a
 * trigger error would): the notifier makes the route at the user's first alert email instead.
 * USER_SIGN_UP creates accounts confirmed through the admin API, which runs no such trigger, and
 * does the same work itself (lambdas/actions/user.ts).
 */
export const alertEmailRouteOnConfirmation =
  (topics: Pick<AlertEmailTopics, 'ensure'>, log: Logger) =>
  async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
    // A confirmed password reset is no new address.
    if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return event;
    const sub = event.request.userAttributes.sub;
    const email = event.request.userAttributes.email;
    if (!sub || !email) {
      log.warn('confirmed account without sub or email: no alert email route', { user: event.userName });
      return event;
    }
    try {
      await topics.ensure({ _id: sub, email: normaliseEmail(email) });
      log.info('alert email route made', { user: sub });
    } catch (err) {
      assertIsError(err);
      log.error('alert email route not made; the notifier will make it', { user: sub, err });
    }
    return event;
  };
