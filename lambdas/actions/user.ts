import { decodeResetToken, MSG_RESET_LINK, userContracts as contracts } from '../../shared/api/actions/user';
import { normaliseEmail, normalisePhone } from '../../shared/entities/user';
import type { Tokens } from '../ports/cognito';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';
import { organizationOfUser } from './support/organizations';
import { pushAcknowledgeHandlers } from './support/push';

const tokensAnswer = (tokens: Tokens) => ({ token: tokens.accessToken, idToken: tokens.idToken, refreshToken: tokens.refreshToken });

/** /api/user: the signed-in user's record, sign-in and login status (farmer spec §7). */
export const userHandlers: readonly ServedAction[] = [
  serve(contracts.USER_ONE_GET_BY_TOKEN, ['farms', 'organizations'], async (_input, { caller, deps }) => {
    const user = await deps.farms.getUser(caller.userId);
    // A Cognito account without a profile is not a user of this product (yet): no permission.
    if (!user) throw new ForbiddenError('No user profile for this account');
    const [farmIds, organization] = await Promise.all([deps.farms.listFarmIdsOfUser(caller.userId), organizationOfUser(deps.organizations, caller.userId)]);
    const listFarm = await deps.farms.getFarms(farmIds);
    // The role shown is the one the verified token carries, never a stored copy. The organization
    // is the top of the user's first organization tree (farmer §2.12), null when they have none,
    // which hides the group link (as does a demo account, in the shell).
    // An operator role counts only in a session that answered the authenticator (decision 005), as
    // dispatch's operator rule does: the menus it drives never offer what the server would refuse.
    return { user: { ...user, role: caller.totp ? caller.role : 'User' }, listFarm, organization };
  }),
  serve(contracts.USER_CHECK_LOGIN_STATUS, [], async (_input, { caller }) => (caller ? 'logged_in' : 'logged_out')),
  serve(contracts.USER_SIGN_IN, ['identity'], async ({ user }, { deps }) => {
    const result = await deps.identity.signIn(user.email.toLowerCase(), user.password);
    // An account with an authenticator app answers the code step next (USER_SIGN_IN_TOTP).
    if ('challenge' in result) return { challenge: result.challenge, session: result.session };
    return tokensAnswer(result);
  }),
  serve(contracts.USER_SIGN_IN_TOTP, ['identity'], async ({ user }, { deps }) => tokensAnswer(await deps.identity.answerTotp(user.email.toLowerCase(), user.session, user.code))),
  // The bot-check runs in Cognito's pre-sign-up trigger, so a direct SignUp cannot skip it (and a
  // reCAPTCHA answer counts once: checking it here as well would spend it).
  serve(contracts.USER_SIGN_UP, ['identity', 'userProfiles', 'alertTopics', 'now'], async ({ gRecaptchaResponse, user }, { deps, log }) => {
    const email = normaliseEmail(user.email);
    const phone = normalisePhone(user.phone);
    const sub = await deps.identity.signUp({ email, password: user.password, firstName: user.firstName, lastName: user.lastName, phone }, gRecaptchaResponse);
    try {
      await deps.userProfiles.putUser(
        {
          _id: sub,
          firstName: user.firstName,
          lastName: user.lastName,
          email,
          phone,
          role: 'User',
          is_herd_enabled: 0,
          subscribed: false,
          email_verify: 1,
          phone_verify: 1,
          created_at: deps.now().toISOString(),
        },
        { onlyIfNew: true },
      );
    } catch (err) {
      // An account without a profile could neither use the product nor sign up again ('already
      // exists'): it goes, so the person's retry starts afresh.
      await deps.identity.removeAccount(email).catch((undo: unknown) => log.error('sign-up left an account without a profile', { user: sub, err: undo }));
      throw err;
    }
    log.info('user signed up', { user: sub });
    // The post-confirmation trigger's work (triggers/alert-email-route.ts): Cognito does not run it
    // for an account the admin API creates. Never fails the sign-up: the notifier makes the route
    // at the first alert email instead.
    await deps.alertTopics
      .ensure({ _id: sub, email })
      .then(() => log.info('alert email route made', { user: sub }))
      .catch((err: unknown) => log.error('alert email route not made; the notifier will make it', { user: sub, err }));
    // The spec signs a new user straight in (farmer §2.1: on success go to /dts/dashboard).
    const tokens = await deps.identity.signIn(email, user.password);
    if ('challenge' in tokens) throw new Error('A new account asked for an authenticator code');
    // The address stays unverified (no password reset to it) until its link is followed; the profile can send it again.
    await deps.identity.sendEmailVerification(tokens.accessToken).catch((err: unknown) => log.warn('email verification not sent at sign-up', { user: sub, err }));
    return tokensAnswer(tokens);
  }),
  serve(contracts.USER_FORGOT_PASSWORD, ['identity'], async ({ user }, { deps }) => {
    // The same answer whether or not the email has an account: nothing is revealed.
    await deps.identity.forgotPassword(normaliseEmail(user.email));
    return 'success' as const;
  }),
  serve(contracts.USER_RESET_PASSWORD, ['botCheck', 'identity'], async ({ gRecaptchaResponse, user }, { deps }) => {
    await deps.botCheck.verify(gRecaptchaResponse);
    const link = decodeResetToken(user.token);
    if (!link) throw new ValidationError(MSG_RESET_LINK);
    await deps.identity.resetPassword(normaliseEmail(link.email), link.code, user.password);
    return 'success' as const;
  }),
  ...pushAcknowledgeHandlers,
];
