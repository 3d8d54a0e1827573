import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { startAwsJsonServer } from './aws-json-server';

interface SqsStandIn {
  readonly server: Server;
  /** A queue's URL, as SQS answers CreateQueue (its host is this server: the SDK sends each call there). */
  queueUrl(name: string): string;
  /** What the service puts on a queue (the stream event source's on-failure record, the rule's error action). */
  send(name: string, body: string): void;
}

const ACCOUNT = '000000000000';

/**
 * SQS's GetQueueAttributes and SendMessage (the AWS JSON 1.0 protocol the SDK speaks), in memory:
 * the ingest's dead-letter queue, which the stream event source's on-failure destination fills
 * and the fleet overview counts, so the same SQS adapter code runs locally.
 */
export const startSqs = async (port: number): Promise<SqsStandIn> => {
  const queues = new Map<string, { id: string; body: string; sentAt: number }[]>();
  const base = `http://localhost:${port}/${ACCOUNT}/`;
  const queueOf = (url: unknown) => (typeof url === 'string' && url.startsWith(base) ? url.slice(base.length) : undefined);
  const send = (name: string, body: string): string => {
    const id = randomUUID();
    queues.set(name, [...(queues.get(name) ?? []), { id, body, sentAt: Date.now() }]);
    return id;
  };
  const server = await startAwsJsonServer(port, { version: '1.0', targetPrefix: /^AmazonSQS\./, notJsonType: 'com.amazonaws.sqs#InvalidParameterValue' }, (action, input, answer) => {
    const name = queueOf(input.QueueUrl);
    if (!name) return answer(400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' });
    if (action === 'GetQueueAttributes') {
      const messages = queues.get(name) ?? [];
      // No receiver locally: every message is visible, none in flight or delayed.
      return answer(200, { Attributes: { ApproximateNumberOfMessages: String(messages.length), ApproximateNumberOfMessagesNotVisible: '0', ApproximateNumberOfMessagesDelayed: '0' } });
    }
    if (action === 'SendMessage') {
      if (typeof input.MessageBody !== 'string' || input.MessageBody === '') return answer(400, { __type: 'com.amazonaws.sqs#MissingParameter', message: 'MessageBody is required' });
      return answer(200, { MessageId: send(name, input.MessageBody) });
    }
    return answer(400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `${action} is not supported by the local SQS stand-in` });
  });
  return { server, queueUrl: (name) => `${base}${name}`, send: (name, body) => void send(name, body) };
};
