import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** The SNS query protocol's answers and form fields, as the SNS stand-in (sns-outbox.ts) speaks them. */
const xml = (action: string, result: string, requestId: string) =>
  `<?xml version="1.0"?><${action}Response xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`;

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0"?><ErrorResponse xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;

export const ok = (res: ServerResponse, action: string, result: string) => res.writeHead(200, { 'content-type': 'text/xml' }).end(xml(action, result, randomUUID()));

export const fail = (res: ServerResponse, status: number, code: string, message: string) => res.writeHead(status, { 'content-type': 'text/xml' }).end(xmlError(code, message));

export const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** MessageAttributes.entry.N.Name / .Value.StringValue as the query protocol sends them. */
export const attributesOf = (form: URLSearchParams): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let n = 1; form.has(`MessageAttributes.entry.${n}.Name`); n += 1) {
    out[form.get(`MessageAttributes.entry.${n}.Name`) ?? ''] = form.get(`MessageAttributes.entry.${n}.Value.StringValue`) ?? '';
  }
  return out;
};

/** Attributes.entry.N.key / .value as the query protocol sends them. */
export const subscribeAttributesOf = (form: URLSearchParams): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let n = 1; form.has(`Attributes.entry.${n}.key`); n += 1) out[form.get(`Attributes.entry.${n}.key`) ?? ''] = form.get(`Attributes.entry.${n}.value`) ?? '';
  return out;
};
