import { describe, expect, it } from 'vitest';
import { multipartBody, parseMultipart } from './multipart';

/** A body as a browser's FormData makes it, read through the real Request encoder. */
const formBody = async (fields: Record<string, string | { name: string; text: string }>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') form.set(k, v);
    else form.set(k, new Blob([v.text], { type: 'text/csv' }), v.name);
  }
  const req = new Request('http://x', { method: 'POST', body: form });
  return { body: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') ?? '' };
};

describe('multipart bodies (the farm settings upload)', () => {
  it('reads text fields as strings and a file as its name and UTF-8 text', async () => {
    const { body, contentType } = await formBody({ type: 'FARMS_SETTINGS_UPLOAD', farms_settings: { name: 'w.csv', text: 'a,b\r\nMāori,é\r\n' } });
    expect(parseMultipart(body, contentType)).toEqual({ type: 'FARMS_SETTINGS_UPLOAD', farms_settings: { filename: 'w.csv', content: 'a,b\r\nMāori,é\r\n' } });
  });

  it('refuses a file over 1 MB and a body that is not a form', async () => {
    const { body, contentType } = await formBody({ farms_settings: { name: 'big.csv', text: 'x'.repeat(1024 * 1024 + 1) } });
    expect(() => parseMultipart(body, contentType)).toThrow('The file may be at most 1 MB.');
    expect(() => parseMultipart(Buffer.from('nonsense'), 'multipart/form-data; boundary=abc')).toThrow('The request body could not be read.');
    expect(() => parseMultipart(Buffer.from('x'), 'multipart/form-data')).toThrow('The request body could not be read.');
  });

  it('turns a base64 multipart event body into fields, and leaves other bodies alone', async () => {
    const { body, contentType } = await formBody({ type: 'T' });
    const event = { headers: { 'content-type': contentType }, body: body.toString('base64'), isBase64Encoded: true };
    multipartBody().before({ event: event as never });
    expect(event.body).toEqual({ type: 'T' });
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'type=T', isBase64Encoded: false };
    multipartBody().before({ event: form as never });
    expect(form.body).toBe('type=T');
  });
});
