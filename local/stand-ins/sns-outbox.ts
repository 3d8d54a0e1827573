import { createServer, type Server } from 'node:http';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';

/** One message the product sent: an SMS (to a phone number) or an email (through a topic). */
export interface OutboxMessage {
  readonly id: string;
  readonly at: string;
  readonly channel: 'sms' | 'email';
  /** Phone number for SMS; the topic ARN for email. */
  readonly to: string;
  readonly subject?: string;
  readonly message: string;
  readonly attributes: Record<string, string>;
}

const xml = (action: string, result: string, requestId: string) =>
  `<?xml version="1.0"?><${action}Response xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`;

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0"?><ErrorResponse xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;

/** MessageAttributes.entry.N.Name / .Value.StringValue as the query protocol sends them. */
const attributesOf = (form: URLSearchParams): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let n = 1; form.has(`MessageAttributes.entry.${n}.Name`); n += 1) {
    out[form.get(`MessageAttributes.entry.${n}.Name`) ?? ''] = form.get(`MessageAttributes.entry.${n}.Value.StringValue`) ?? '';
  }
  return out;
};

/**
 * SNS stand-in: answers the SNS query protocol's Publish, so the product's notifier uses the
 * real @aws-sdk/client-sns with only SNS_ENDPOINT changed. Every message is appended to a
 * JSON-lines file (kept across restarts) and readable at GET /messages.
 */
export interface SnsOutbox {
  readonly server: Server;
  readonly endpoint: string;
  read(): OutboxMessage[];
  /** For mail that does not go through SNS in AWS either (Cognito's own emails). */
  append(entry: Omit<OutboxMessage, 'id' | 'at' | 'attributes'>): OutboxMessage;
}

export const startSnsOutbox = async (port: number, file: string): Promise<SnsOutbox> => {
  mkdirSync(dirname(file), { recursive: true });
  const append = (entry: Omit<OutboxMessage, 'id' | 'at' | 'attributes'> & { attributes?: Record<string, string> }): OutboxMessage => {
    const full: OutboxMessage = { id: randomUUID(), at: new Date().toISOString(), attributes: {}, ...entry };
    appendFileSync(file, `${JSON.stringify(full)}\n`);
    return full;
  };
  const read = (): OutboxMessage[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as OutboxMessage)
      : [];
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read()));
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const action = form.get('Action');
      if (action !== 'Publish') {
        res.writeHead(400, { 'content-type': 'text/xml' }).end(xmlError('InvalidAction', `The local SNS outbox answers Publish only, not ${action ?? '(none)'}`));
        return;
      }
      const phone = form.get('PhoneNumber');
      const topic = form.get('TopicArn') ?? form.get('TargetArn');
      const message = form.get('Message');
      if ((!phone && !topic) || !message) {
        res.writeHead(400, { 'content-type': 'text/xml' }).end(xmlError('InvalidParameter', 'Publish needs Message and PhoneNumber or TopicArn'));
        return;
      }
      if (phone && !/^\+[1-9]\d{6,14}$/.test(phone)) {
        res.writeHead(400, { 'content-type': 'text/xml' }).end(xmlError('InvalidParameter', `Invalid parameter: PhoneNumber Reason: ${phone} is not E.164`));
        return;
      }
      const entry = append({
        channel: phone ? 'sms' : 'email',
        to: phone ?? topic ?? '',
        ...(form.get('Subject') ? { subject: form.get('Subject') ?? '' } : {}),
        message,
        attributes: attributesOf(form),
      });
      res.writeHead(200, { 'content-type': 'text/xml' }).end(xml('Publish', `<MessageId>${entry.id}</MessageId>`, randomUUID()));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, endpoint: `http://127.0.0.1:${port}`, read, append };
};
