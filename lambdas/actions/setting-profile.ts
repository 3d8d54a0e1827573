import {
  EMAIL_VERIFY_SUCCESS,
  MSG_AUTHENTICATOR_CODE,
  MSG_AUTHENTICATOR_EMAIL_UNVERIFIED,
  MSG_AUTHENTICATOR_NOT_SET_UP,
  MSG_EMAIL_VERIFIED_OTHER,
  MSG_EMAIL_VERIFY_FAILED,
  MSG_PHONE_VERIFIED_OTHER,
  MSG_SIGN_IN_AGAIN,
  MSG_PHONE_VERIFY_FAILED,
  PHONE_VERIFY_SUCCESS,
  settingProfileContracts as contracts,
} from '../../shared/api/actions/profile';
import { normaliseEmail, normalisePhone } from '../../shared/entities/user';
import type { VerifiedAttribute } from '../ports/cognito';
import { alertRecipientOf } from '../ports/alert-email';
import type { FarmReader, Ports } from '../ports/action-ports';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../lib/errors';
import type { Caller } from '../lib/caller';
import { profileOf } from './support/profile-of';
import { pushSubscriptionHandlers } from './support/push';

/** Cognito's self-service calls need the person's own access token: without one there is nobody to act for. */
const tokenOf = (caller: Caller): string => {
  if (!caller.accessToken) throw new UnauthorizedError(MSG_SIGN_IN_AGAIN);
  return caller.accessToken;
};

/**
 * The access token of a caller whose email is verified: the authenticator's confirmation goes by
 * email, so only to an address the person has proved is theirs.
 */
const verifiedEmailToken = async (farms: FarmReader, caller: Caller): Promise<string> => {
  const token = tokenOf(caller);
  if ((await profileOf(farms, caller)).email_verify !== 2) throw new ValidationError(MSG_AUTHENTICATOR_EMAIL_UNVERIFIED);
  return token;
};

const FLAG_OF: Record<VerifiedAttribute, 'email_verify' | 'phone_verify'> = { email: 'email_verify', phone_number: 'phone_verify' };

/** /api/setting/profile (farmer §2.10, §4, §7): the person's own profile, verification and password. */
export const settingProfileHandlers: readonly ServedAction[] = [
  serve(contracts.USER_PROFILE_DATAILS, ['farms'], async (_input, { caller, deps }) => profileOf(deps.farms, caller)),

  serve(contracts.USER_PROFILE_EDIT_BASE, ['userProfiles', 'account'], async ({ user }, { caller, deps, log }) => {
    const before = await profileOf(deps.userProfiles, caller);
    const phone = normalisePhone(user.phone);
    const phoneChanged = phone !== before.phone;
    // A new phone is unverified (§4): texts stop until its code is checked (the notifier sends only to phone_verify 2).
    const after = await deps.userProfiles.updateUser(caller.userId, {
      firstName: user.firstName,
      lastName: user.lastName,
      ...(user.subscribed === undefined ? {} : { subscribed: user.subscribed }),
      ...(phoneChanged ? { phone, phone_verify: 1 } : {}),
    });
    if (!after) throw new ForbiddenError('No user profile for this account');
    try {
      await deps.account.updateAttributes(caller.username, { firstName: user.firstName, lastName: user.lastName, ...(phoneChanged ? { phone } : {}) });
    } catch (err) {
      // Cognito refused (a phone it cannot take, throttling): the stored profile goes back to what it was, so the two never disagree.
      await deps.userProfiles.updateUser(caller.userId, {
        firstName: before.firstName,
        lastName: before.lastName,
        subscribed: before.subscribed,
        ...(phoneChanged ? { phone: before.phone, phone_verify: before.phone_verify } : {}),
      });
      throw err;
    }
    if (phoneChanged) log.info('phone changed; texts stop until it is verified', { user: caller.userId });
    return { ...after, role: caller.role };
  }),

  serve(contracts.USER_ALERT_EMAIL_STATUS, ['farms', 'alertRoutes'], async (_input, { caller, deps }) => {
    const user = await profileOf(deps.farms, caller);
    return { status: (await deps.alertRoutes.status(alertRecipientOf(user))).status };
  }),

  serve(contracts.USER_ALERT_EMAIL_RESEND, ['farms', 'alertRoutes'], async (_input, { caller, deps, log }) => {
    const user = await profileOf(deps.farms, caller);
    const status = await deps.alertRoutes.resend(alertRecipientOf(user));
    log.info('alert email confirmation', { user: caller.userId, status });
    return { status };
  }),

  serve(contracts.USER_PROFILE_EDIT_PASSWORD, ['account'], async ({ password, password1 }, { caller, deps }) => {
    await deps.account.changePassword(tokenOf(caller), password, password1);
    return 'success' as const;
  }),

  serve(contracts.USER_PROFILE_VERIFY_SEND_EMAIL, ['account'], async (_input, { caller, deps }) => {
    await deps.account.sendVerificationCode(tokenOf(caller), 'email');
    return 'success' as const;
  }),

  serve(contracts.USER_PROFILE_VERIFY_SEND_PHONE, ['farms', 'account'], async (_input, { caller, deps }) => {
    const user = await profileOf(deps.farms, caller);
    if (!user.phone) throw new ValidationError('Please enter your phone number');
    await deps.account.sendVerificationCode(tokenOf(caller), 'phone_number');
    return 'success' as const;
  }),

  serve(contracts.USER_PROFILE_VERIFY_CHECK_EMAIL, ['userProfiles', 'account'], async ({ verification }, { caller, deps }) => {
    await verify(deps, caller, 'email', verification, MSG_EMAIL_VERIFY_FAILED);
    return EMAIL_VERIFY_SUCCESS;
  }),

  serve(contracts.USER_AUTHENTICATOR_CONFIRM_SEND, ['farms', 'account'], async (_input, { caller, deps }) => {
    const token = await verifiedEmailToken(deps.farms, caller);
    await deps.account.sendAuthenticatorCode(token);
    return 'success' as const;
  }),

  serve(contracts.USER_AUTHENTICATOR_CONFIRM, ['farms', 'account', 'now'], async ({ code }, { caller, deps, log }) => {
    const token = await verifiedEmailToken(deps.farms, caller);
    const outcome = await deps.account.confirmAuthenticator(token, caller.username, code, deps.now());
    if (outcome === 'no-app') throw new ValidationError(MSG_AUTHENTICATOR_NOT_SET_UP);
    if (outcome === 'wrong-code') throw new ValidationError(MSG_AUTHENTICATOR_CODE);
    log.info('authenticator app confirmed; every session signed out');
    return 'success' as const;
  }),

  serve(contracts.USER_PROFILE_VERIFY_CHECK_PHONE, ['userProfiles', 'account'], async ({ verification }, { caller, deps }) => {
    await verify(deps, caller, 'phone_number', verification, MSG_PHONE_VERIFY_FAILED);
    return PHONE_VERIFY_SUCCESS;
  }),
  ...pushSubscriptionHandlers,
];

/**
 * Cognito checks the code; only then is the flag set to 2 (verified) here. A wrong or expired code
 * changes nothing. The code proves the value Cognito holds now, which is not necessarily the
 * profile's (a value changed in Cognito after the profile saved it, by a client that could still
 * write it or by anything else): the flag is set only when Cognito's value, read back, is the
 * profile's, so a code sent to one number never marks another verified.
 */
const verify = async (
  deps: Pick<Ports, 'userProfiles' | 'account'>,
  caller: Caller,
  attribute: VerifiedAttribute,
  code: string,
  failed: string,
): Promise<void> => {
  if (!(await deps.account.verifyAttribute(tokenOf(caller), attribute, code))) throw new ValidationError(failed);
  const [profile, current] = await Promise.all([profileOf(deps.userProfiles, caller), deps.account.contactOf(caller.username)]);
  const same =
    attribute === 'email'
      ? current.email !== undefined && normaliseEmail(current.email) === normaliseEmail(profile.email)
      : current.phone !== undefined && normalisePhone(current.phone) === normalisePhone(profile.phone);
  if (!same) throw new ValidationError(attribute === 'email' ? MSG_EMAIL_VERIFIED_OTHER : MSG_PHONE_VERIFIED_OTHER);
  await deps.userProfiles.updateUser(caller.userId, { [FLAG_OF[attribute]]: 2 });
};
