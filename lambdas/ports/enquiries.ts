import type { EnquiryProducts } from '../../shared/api/actions/profile';

/** The partition-key prefix of enquiries (cdk/lib/port-grants.ts grants PutItem on it alone). */
export const ENQUIRY_KEY_PREFIX = 'ENQUIRY#';

/** An enquiry as stored (farmer §2.16): who asked, for which farms, about which products, when. */
interface Enquiry {
  readonly user_id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phone: string;
  /** The supply numbers of the person's farms. */
  readonly farms: readonly string[];
  readonly products: EnquiryProducts;
  readonly submitted_at: string;
}

/**
 * Enquiries in the Farms table under `ENQUIRY#<user>` / `<UTC time>`: written once each, never
 * changed (the API's grant is PutItem on those keys only), read by sales from the mail they get.
 */
export interface EnquiryRepository {
  putEnquiry(enquiry: Enquiry): Promise<void>;
}

/** Mail to the sales team (the enquiry page, farmer §2.16): one SNS topic, the sales address subscribed to it. */
export interface SalesMail {
  send(subject: string, body: string): Promise<void>;
}
