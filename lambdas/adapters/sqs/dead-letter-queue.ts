import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { optionalEnv, requireEnv } from '../../lib/env';
import { instrumented } from '../aws-client';
import { INGEST_DEAD_LETTERS_URL_ENV, type DeadLetterQueue } from '../../ports/fleet';

/**
 * The ingest's dead-letter queue by GetQueueAttributes: the count SQS keeps, one call, whatever
 * the queue holds. The client's endpoint is the queue URL's own origin (in AWS the same as the
 * region's), so locally the SQS stand-in (local/stand-ins/sqs.ts) answers it, and the SDK has no
 * mismatch between the two to warn about on every call.
 */
const sqsDeadLetterQueue = (client: SQSClient, queueUrl: string): DeadLetterQueue => ({
  async count() {
    const { Attributes: a = {} } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    return Number(a.ApproximateNumberOfMessages ?? 0) + Number(a.ApproximateNumberOfMessagesNotVisible ?? 0);
  },
});

export const deadLetterQueueFromEnv = (env: NodeJS.ProcessEnv = process.env): DeadLetterQueue => {
  const queueUrl = requireEnv(INGEST_DEAD_LETTERS_URL_ENV, env);
  return sqsDeadLetterQueue(instrumented(new SQSClient({ region: optionalEnv('AWS_REGION', env) ?? 'us-east-1', endpoint: new URL(queueUrl).origin })), queueUrl);
};
