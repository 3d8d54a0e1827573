import * as z from 'zod';
import { farmSchema } from '../../entities/farm';
import { userSchema } from '../../entities/user';
import { access, contract } from '../contract';
import { boolField, jsonField } from '../fields';
import { nameField, newPasswordField, phoneField } from './user';

// ---- The spec's words (farmer §2.10, §2.16, §5, §7, §8) ----------------------------------------

export const MSG_SUCCESS = 'Success!';
export const MSG_EMAIL_SENT = 'Please check the email and complete the rest of the operation!';
export const MSG_SMS_SENT = 'Text message has been sent!';
/** The server's answers to the two checks (§7); the client shows the §8 messages below. */
export const EMAIL_VERIFY_SUCCESS = 'Email verify success' as const;
export const PHONE_VERIFY_SUCCESS = 'Phone verify success' as const;
export const MSG_EMAIL_VERIFIED = 'Email verification succeeded';
export const MSG_PHONE_VERIFIED = 'Phone verification succeeded';
export const MSG_PHONE_VERIFY_FAILED = 'Phone verification failed';
/** The spec words only the phone's failure; the email's is worded the same way. */
export const MSG_EMAIL_VERIFY_FAILED = 'Email verification failed';
/** Cognito verified a value other than the profile's (changed there since the code was sent): the profile is not marked verified. */
export const MSG_PHONE_VERIFIED_OTHER = 'The verified number is not the one on your profile. Save your profile and verify it again.';
export const MSG_EMAIL_VERIFIED_OTHER = 'The verified email is not the one on your profile. Verify the email on your profile again.';
export const MSG_ENQUIRY_EMPTY = 'Please select at least one option.';
export const MSG_ENQUIRY_SENT = 'Submit was successful, we will contact you soon.' as const;
/** Ours: the spec shows no match check on the client (§5), so the server words it. */
const MSG_PASSWORDS_DIFFER = 'The new passwords do not match';
export const MSG_CURRENT_PASSWORD = 'The current password is not correct';
const MSG_CURRENT_PASSWORD_REQUIRED = 'Please enter your current password';
const MSG_NAME_REQUIRED = 'Please enter your first and last name';

/** Ours: the alert email's SNS subscription is not confirmed, so alert email cannot reach the person. */
export const MSG_ALERT_EMAIL_NOT_CONFIRMED = 'Alert email not confirmed';
/** The confirmation of the person's alert-email subscription: pending (link not followed), confirmed, expired (not followed in time). */
const alertEmailStatusSchema = z.enum(['pending', 'confirmed', 'expired']);

/** Ours: a bearer Cognito will not act on for the person (an ID token, revoked or signed out everywhere). */
export const MSG_SIGN_IN_AGAIN = 'Please sign in again.';

// ---- Ours: the authenticator app's confirmation by email (operators need a confirmed app) ----------

/** The enrolment screen's last step: the code emailed to the person's verified address. */
export const MSG_AUTHENTICATOR_CODE = 'That code is not valid. Enter the 6-digit code from the email we sent you.';
/** The emailed code confirms an app Cognito already asks for at sign-in; without one there is nothing to confirm. */
export const MSG_AUTHENTICATOR_NOT_SET_UP = 'Set up the authenticator app first, then enter the code from the email.';
/** The code goes to the verified address only: an unverified one could be anybody's. */
export const MSG_AUTHENTICATOR_EMAIL_UNVERIFIED = 'Verify your email address on your profile page first: the confirmation code is sent there.';

/** Verification codes are 6 digits (§9); the dialog checks itself at exactly 6 (§2.10). */
export const VERIFICATION_CODE_LENGTH = 6;
const codeField = (message: string) => z.string({ error: message }).trim().regex(/^\d{6}$/, message);

/** What USER_PROFILE_EDIT_BASE changes: the email is read-only (§2.10), other keys are ignored. */
export const profileEditSchema = z.object({
  firstName: nameField(MSG_NAME_REQUIRED),
  lastName: nameField(MSG_NAME_REQUIRED),
  phone: phoneField,
  subscribed: boolField.optional(),
});
export type ProfileEdit = z.infer<typeof profileEditSchema>;

/** The seven products of the enquiry (§7: water, effluent, soil, weather, grain, asset, dairy). */
export const ENQUIRY_PRODUCTS = [
  { key: 'water', label: 'Water' },
  { key: 'effluent', label: 'Effluent' },
  { key: 'soil', label: 'Soil' },
  { key: 'weather', label: 'Weather' },
  { key: 'grain', label: 'Grain Silo' },
  { key: 'asset', label: 'Asset Tracking' },
  { key: 'dairy', label: 'Dairy Automation' },
] as const;
export type EnquiryProduct = (typeof ENQUIRY_PRODUCTS)[number]['key'];

const enquiryProductsSchema = z
  .object(Object.fromEntries(ENQUIRY_PRODUCTS.map((p) => [p.key, z.boolean({ error: MSG_ENQUIRY_EMPTY }).optional().default(false)])) as Record<EnquiryProduct, z.ZodDefault<z.ZodOptional<z.ZodBoolean>>>)
  .refine((p) => Object.values(p).some(Boolean), MSG_ENQUIRY_EMPTY);
export type EnquiryProducts = z.infer<typeof enquiryProductsSchema>;

const type = <T extends string>(t: T) => z.literal(t);

/** The profile and enquiry types (USER_PROFILE_DATAILS is spelled so, spec §7). */
const profileInputs = {
  USER_PROFILE_DATAILS: z.object({ type: type('USER_PROFILE_DATAILS') }),
  USER_PROFILE_EDIT_BASE: z.object({ type: type('USER_PROFILE_EDIT_BASE'), user: jsonField(profileEditSchema, 'user') }),
  USER_PROFILE_EDIT_PASSWORD: z
    .object({
      type: type('USER_PROFILE_EDIT_PASSWORD'),
      password: z.string({ error: MSG_CURRENT_PASSWORD_REQUIRED }).min(1, MSG_CURRENT_PASSWORD_REQUIRED).max(256, MSG_CURRENT_PASSWORD),
      password1: newPasswordField,
      password2: z.string({ error: MSG_PASSWORDS_DIFFER }).max(256, MSG_PASSWORDS_DIFFER),
    })
    .refine((f) => f.password1 === f.password2, { message: MSG_PASSWORDS_DIFFER, path: ['password2'] }),
  USER_PROFILE_VERIFY_SEND_EMAIL: z.object({ type: type('USER_PROFILE_VERIFY_SEND_EMAIL') }),
  USER_PROFILE_VERIFY_SEND_PHONE: z.object({ type: type('USER_PROFILE_VERIFY_SEND_PHONE') }),
  USER_PROFILE_VERIFY_CHECK_EMAIL: z.object({ type: type('USER_PROFILE_VERIFY_CHECK_EMAIL'), verification: codeField(MSG_EMAIL_VERIFY_FAILED) }),
  USER_PROFILE_VERIFY_CHECK_PHONE: z.object({ type: type('USER_PROFILE_VERIFY_CHECK_PHONE'), verification: codeField(MSG_PHONE_VERIFY_FAILED) }),
  SURVEY_SUBMIT: z.object({ type: type('SURVEY_SUBMIT'), products: jsonField(enquiryProductsSchema, 'products') }),
  USER_ALERT_EMAIL_STATUS: z.object({ type: type('USER_ALERT_EMAIL_STATUS') }),
  USER_ALERT_EMAIL_RESEND: z.object({ type: type('USER_ALERT_EMAIL_RESEND') }),
  USER_AUTHENTICATOR_CONFIRM_SEND: z.object({ type: type('USER_AUTHENTICATOR_CONFIRM_SEND') }),
  USER_AUTHENTICATOR_CONFIRM: z.object({ type: type('USER_AUTHENTICATOR_CONFIRM'), code: codeField(MSG_AUTHENTICATOR_CODE) }),
} as const;

const path = '/api/setting/profile';

/** /api/setting/profile: the caller's own profile (farmer §2.10); the enquiry page edits through it too (§7). */
export const settingProfileContracts = {
  USER_PROFILE_DATAILS: contract({ path, type: 'USER_PROFILE_DATAILS', input: profileInputs.USER_PROFILE_DATAILS, answer: userSchema, access: access.self }),
  USER_PROFILE_EDIT_BASE: contract({ path, type: 'USER_PROFILE_EDIT_BASE', input: profileInputs.USER_PROFILE_EDIT_BASE, answer: userSchema, access: access.self }),
  USER_PROFILE_EDIT_PASSWORD: contract({ path, type: 'USER_PROFILE_EDIT_PASSWORD', input: profileInputs.USER_PROFILE_EDIT_PASSWORD, answer: z.literal('success'), access: access.self }),
  USER_PROFILE_VERIFY_SEND_EMAIL: contract({ path, type: 'USER_PROFILE_VERIFY_SEND_EMAIL', input: profileInputs.USER_PROFILE_VERIFY_SEND_EMAIL, answer: z.literal('success'), access: access.self }),
  USER_PROFILE_VERIFY_SEND_PHONE: contract({ path, type: 'USER_PROFILE_VERIFY_SEND_PHONE', input: profileInputs.USER_PROFILE_VERIFY_SEND_PHONE, answer: z.literal('success'), access: access.self }),
  USER_PROFILE_VERIFY_CHECK_EMAIL: contract({ path, type: 'USER_PROFILE_VERIFY_CHECK_EMAIL', input: profileInputs.USER_PROFILE_VERIFY_CHECK_EMAIL, answer: z.literal(EMAIL_VERIFY_SUCCESS), access: access.self }),
  USER_PROFILE_VERIFY_CHECK_PHONE: contract({ path, type: 'USER_PROFILE_VERIFY_CHECK_PHONE', input: profileInputs.USER_PROFILE_VERIFY_CHECK_PHONE, answer: z.literal(PHONE_VERIFY_SUCCESS), access: access.self }),
  /** The caller's alert email: is its subscription confirmed (read from SNS)? */
  USER_ALERT_EMAIL_STATUS: contract({ path, type: 'USER_ALERT_EMAIL_STATUS', input: profileInputs.USER_ALERT_EMAIL_STATUS, answer: z.object({ status: alertEmailStatusSchema }), access: access.self }),
  /** Subscribes the caller's address again, so SNS sends a new confirmation email (a confirmed one is left as it is). */
  USER_ALERT_EMAIL_RESEND: contract({ path, type: 'USER_ALERT_EMAIL_RESEND', input: profileInputs.USER_ALERT_EMAIL_RESEND, answer: z.object({ status: alertEmailStatusSchema }), access: access.self }),
  /** Emails a code to the caller's verified address, to confirm the authenticator app they just set up. */
  USER_AUTHENTICATOR_CONFIRM_SEND: contract({ path, type: 'USER_AUTHENTICATOR_CONFIRM_SEND', input: profileInputs.USER_AUTHENTICATOR_CONFIRM_SEND, answer: z.literal('success'), access: access.self }),
  /**
   * Confirms the app with the emailed code and signs the person out everywhere: from their next
   * sign-in (password and the app's code) their session has operator reach.
   */
  USER_AUTHENTICATOR_CONFIRM: contract({ path, type: 'USER_AUTHENTICATOR_CONFIRM', input: profileInputs.USER_AUTHENTICATOR_CONFIRM, answer: z.literal('success'), access: access.self }),
} as const;

/** /api/farmer/survey: the same details type answers the caller and their farms, and the enquiry (farmer §2.16). */
export const farmerSurveyContracts = {
  USER_PROFILE_DATAILS: contract({
    path: '/api/farmer/survey',
    type: 'USER_PROFILE_DATAILS',
    input: profileInputs.USER_PROFILE_DATAILS,
    answer: z.object({ user: userSchema, farms: z.array(farmSchema) }),
    access: access.self,
  }),
  SURVEY_SUBMIT: contract({ path: '/api/farmer/survey', type: 'SURVEY_SUBMIT', input: profileInputs.SURVEY_SUBMIT, answer: z.literal(MSG_ENQUIRY_SENT), access: access.self }),
} as const;
