import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { farmsKeys as k } from './keys';
import type { EnquiryRepository } from '../../ports/enquiries';

export const dynamoEnquiryRepository = (doc: DynamoDBDocumentClient, table: string): EnquiryRepository => ({
  async putEnquiry(enquiry) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.enquiry(enquiry.user_id, enquiry.submitted_at), kind: 'ENQUIRY', ...enquiry } }));
  },
});
