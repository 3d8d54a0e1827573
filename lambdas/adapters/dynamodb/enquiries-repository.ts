import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EnquiryProducts } from '../../../shared/api/actions/profile';
import { farmsKeys as k } from './keys';

/** An enquiry as stored (farmer §2.16): who asked, for which farms, about which products, when. */
export interface Enquiry {
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

export const dynamoEnquiryRepository = (doc: DynamoDBDocumentClient, table: string): EnquiryRepository => ({
  async putEnquiry(enquiry) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.enquiry(enquiry.user_id, enquiry.submitted_at), kind: 'ENQUIRY', ...enquiry } }));
  },
});
