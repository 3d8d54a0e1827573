import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { compressResponse, COMPRESS_MIN_BYTES, pickEncoding } from './compression';
import { ValidationError } from './errors';
import { http } from './http';
import { createLogger } from './logger';

const big = { points: Array.from({ length: 500 }, (_, i) => ({ published_at: new Date(i * 60_000).toISOString(), temp1: 4 + (i % 7) / 10 })) };
const log = createLogger({}, 'error', () => undefined);

const event = (acceptEncoding?: string): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    headers: { 'content-type': 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    requestContext: {},
    body: '{}',
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const call = async (handle: () => Promise<unknown>, acceptEncoding?: string) =>
  (await http(handle, log)(event(acceptEncoding), {} as Context)) as APIGatewayProxyStructuredResultV2;

describe('pickEncoding', () => {
  it('prefers br, then gzip, honours q=0 and *, and answers none when neither is accepted', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding('gzip;q=0')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});

describe('the middy stack compresses answers', () => {
  it('answers brotli as base64 with Content-Encoding for a browser, and the bytes decode to the JSON', async () => {
    const res = await call(async () => big, 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.isBase64Encoded).toBe(true);
    expect(res.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', 'content-type': 'application/json; charset=utf-8' });
    const bytes = Buffer.from(res.body ?? '', 'base64');
    expect(JSON.parse(brotliDecompressSync(bytes).toString('utf8'))).toEqual(big);
    expect(bytes.length).toBeLessThan(JSON.stringify(big).length / 5);
  });

  it('answers gzip to a client that takes only gzip, and plain JSON to one that takes neither', async () => {
    const gz = await call(async () => big, 'gzip');
    expect(gz.headers?.['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(gz.body ?? '', 'base64')).toString('utf8'))).toEqual(big);
    const plain = await call(async () => big);
    expect(plain.isBase64Encoded).toBeUndefined();
    expect(plain.headers?.['content-encoding']).toBeUndefined();
    expect(plain.headers?.vary).toBe('accept-encoding');
    expect(JSON.parse(plain.body ?? '')).toEqual(big);
  });

  it('leaves small answers and errors under the threshold as they are; compresses a large error body', async () => {
    const small = await call(async () => ({ ok: true }), 'br');
    expect(small.headers?.['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body ?? '')).toEqual({ ok: true });
    const notFound = await call(async () => Promise.reject(new ValidationError('vat is not valid')), 'br');
    expect(notFound.statusCode).toBe(422);
    expect(JSON.parse(notFound.body ?? '')).toEqual({ message: 'vat is not valid' });
    const large = compressResponse({ statusCode: 422, headers: {}, body: 'x'.repeat(COMPRESS_MIN_BYTES) }, 'gzip') as APIGatewayProxyStructuredResultV2;
    expect(large.statusCode).toBe(422);
    expect(gunzipSync(Buffer.from(large.body ?? '', 'base64')).toString()).toBe('x'.repeat(COMPRESS_MIN_BYTES));
  });
});
