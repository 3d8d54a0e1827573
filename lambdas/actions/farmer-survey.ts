import { ENQUIRY_PRODUCTS, farmerSurveyContracts as contracts, MSG_ENQUIRY_SENT, type EnquiryProducts } from '../../shared/api/actions/profile';
import type { User } from '../../shared/entities/user';
import { serve, type ServedAction } from '../lib/dispatch';
import { profileOf } from './support/profile-of';

/** The enquiry as the sales team reads it. */
/**
 * SNS mails the message as plain text, so a value in it is never markup and is not HTML-escaped (the
 * sales team would read `&amp;`); a line break in a value stored before names were limited to
 * letters could still forge a line of its own, so each value is kept on one line.
 */
const oneLine = (text: string): string => text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');

export const enquiryMail = (user: User, farms: readonly string[], products: EnquiryProducts, at: string): { subject: string; body: string } => ({
  subject: oneLine(`Vat-Man enquiry from ${user.firstName} ${user.lastName}`),
  body: [
    `${oneLine(user.firstName)} ${oneLine(user.lastName)} is interested in other monitoring solutions.`,
    '',
    `Interested in: ${ENQUIRY_PRODUCTS.filter((p) => products[p.key]).map((p) => p.label).join(', ')}`,
    '',
    `Email: ${oneLine(user.email)}${user.email_verify === 2 ? '' : ' (not verified)'}`,
    `Phone: ${oneLine(user.phone)}${user.phone_verify === 2 ? '' : ' (not verified)'}`,
    `Supply numbers: ${farms.length ? farms.join(', ') : 'none linked'}`,
    `Submitted: ${at} (UTC)`,
  ].join('\n'),
});

/** /api/farmer/survey (farmer §2.16): the person and their farms, and the enquiry. */
export const farmerSurveyHandlers: readonly ServedAction[] = [
  serve(contracts.USER_PROFILE_DATAILS, ['farms'], async (_input, { caller, deps }) => {
    const user = await profileOf(deps.farms, caller);
    const farms = await deps.farms.getFarms(await deps.farms.listFarmIdsOfUser(caller.userId));
    return { user, farms };
  }),

  serve(contracts.SURVEY_SUBMIT, ['farms', 'enquiries', 'salesMail', 'now'], async ({ products }, { caller, deps, log }) => {
    const user = await profileOf(deps.farms, caller);
    const farms = (await deps.farms.getFarms(await deps.farms.listFarmIdsOfUser(caller.userId))).map((f) => f.fonterra_id);
    const at = deps.now().toISOString();
    // Stored first: a mail that fails leaves the enquiry on record, and the person is told to try again.
    await deps.enquiries.putEnquiry({ user_id: user._id, firstName: user.firstName, lastName: user.lastName, email: user.email, phone: user.phone, farms, products, submitted_at: at });
    const mail = enquiryMail(user, farms, products, at);
    await deps.salesMail.send(mail.subject, mail.body);
    log.info('enquiry sent to sales', { user: user._id, products: ENQUIRY_PRODUCTS.filter((p) => products[p.key]).map((p) => p.key) });
    return MSG_ENQUIRY_SENT;
  }),
];
