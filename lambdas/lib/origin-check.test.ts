import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { http } from './http';
import { createLogger } from './logger';
import { ORIGIN_HEADER } from '../ports/function-settings';

const log = createLogger({}, 'error', () => undefined);
const event = (headers: Record<string, string>): APIGatewayProxyEventV2 =>
  ({ version: '2.0', headers: { 'content-type': 'application/json', ...headers }, requestContext: {}, body: '{"type":"X"}', isBase64Encoded: false }) as unknown as APIGatewayProxyEventV2;

const call = async (secret: string | undefined, headers: Record<string, string>) => {
  const handle = vi.fn(async () => ({ ok: true }));
  const res = (await http(handle, log, secret)(event(headers), {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { res, handled: handle.mock.calls.length };
};

describe('the CloudFront origin check (the WAF cannot be skipped through execute-api)', () => {
  it('serves a request that carries the secret header CloudFront adds (any case of its name)', async () => {
    expect(await call('s3cret-value', { [ORIGIN_HEADER]: 's3cret-value' })).toMatchObject({ res: { statusCode: 200 }, handled: 1 });
    expect(await call('s3cret-value', { 'X-Vatman-Origin-Verify': 's3cret-value' })).toMatchObject({ res: { statusCode: 200 }, handled: 1 });
  });

  it('refuses with 403, before the action runs, a request without it or with another value', async () => {
    for (const headers of [{} as Record<string, string>, { [ORIGIN_HEADER]: 'guess' }, { [ORIGIN_HEADER]: 's3cret-valuE' }, { [ORIGIN_HEADER]: '' }]) {
      const { res, handled } = await call('s3cret-value', headers);
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body ?? '{}')).toEqual({ message: 'Forbidden' });
      expect(handled).toBe(0);
    }
  });

  it('checks nothing without a secret (the local stack has no CloudFront)', async () => {
    expect(await call(undefined, {})).toMatchObject({ res: { statusCode: 200 }, handled: 1 });
  });
});
