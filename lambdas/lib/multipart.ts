import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { FILE_MAX_BYTES, MSG_FILE_TOO_LARGE } from '../../shared/api/fields';
import { ValidationError } from './errors';

/** A file part of a multipart form: its name on the sender's disk and its text (UTF-8). */
interface UploadedFile {
  readonly filename: string;
  readonly content: string;
}

/** Room for the form's other fields and part headers around a file of the largest size. */
const BODY_SLACK_BYTES = 16 * 1024;

const boundaryOf = (contentType: string): string | undefined => /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType)?.slice(1).find(Boolean)?.trim();

const headerParam = (header: string, name: string): string | undefined => new RegExp(`${name}="([^"]*)"`, 'i').exec(header)?.[1];

/**
 * Parses a multipart/form-data body into fields: text parts as strings, file parts as
 * UploadedFile. A body over the limit is refused before it is read; anything that is not a
 * well-formed form is a 422 like every unreadable body.
 */
export const parseMultipart = (body: Buffer, contentType: string): Record<string, string | UploadedFile> => {
  if (body.length > FILE_MAX_BYTES + BODY_SLACK_BYTES) throw new ValidationError(MSG_FILE_TOO_LARGE);
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new ValidationError('The request body could not be read.');
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string | UploadedFile> = {};
  let at = body.indexOf(delimiter);
  if (at < 0) throw new ValidationError('The request body could not be read.');
  for (;;) {
    const start = at + delimiter.length;
    // The closing delimiter is followed by "--".
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw new ValidationError('The request body could not be read.');
    // A part is CRLF, headers, CRLF CRLF, content, CRLF (before the next delimiter).
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw new ValidationError('The request body could not be read.');
    const headers = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const disposition = headers.split('\r\n').find((h) => /^content-disposition:/i.test(h)) ?? '';
    const name = headerParam(disposition, 'name');
    if (name !== undefined) {
      const filename = headerParam(disposition, 'filename');
      if (filename !== undefined) {
        if (content.length > FILE_MAX_BYTES) throw new ValidationError(MSG_FILE_TOO_LARGE);
        fields[name] = { filename, content: content.toString('utf8') };
      } else {
        fields[name] = content.toString('utf8');
      }
    }
    at = next;
  }
  return fields;
};

/**
 * A middy `before` step for multipart/form-data bodies (the admin farm settings upload, operator
 * §7): HTTP API hands such a body base64-encoded; it becomes the fields object the dispatch reads.
 */
export const multipartBody = () => ({
  before: (request: { event: APIGatewayProxyEventV2 }) => {
    const { event } = request;
    const contentType = event.headers?.['content-type'] ?? '';
    if (!/^multipart\/form-data/i.test(contentType) || typeof event.body !== 'string') return;
    const raw = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
    (event as { body: unknown }).body = parseMultipart(raw, contentType);
  },
});
