import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { access, contract } from '../../shared/api/contract';
import { dispatch, serve } from './dispatch';
import { http } from './http';
import { createLogger, redact, REDACTED } from './logger';
import { observe } from './observe';
import type { Ports } from '../ports/action-ports';

const EMAIL = 'aroha.smith@example.co.nz';
const PHONE = '+64 27 555 0100';
const TOKEN = 'eyJraWQiOiJrMSJ9.eyJzdWIiOiJ1c2VyLXN1Yi0xIn0.c2lnbmF0dXJl';
const context = { awsRequestId: 'req-7', functionName: 'vatman-api-user', invokedFunctionArn: 'arn:aws:lambda:ap-southeast-2:1:function:vatman-api-user', memoryLimitInMB: 512, functionVersion: '$LATEST' } as unknown as Context;

const collect = (level: 'debug' | 'info' | 'error' = 'debug') => {
  const lines: string[] = [];
  return { lines, log: createLogger({ endpoint: '/api/setting/profile' }, level, (l) => lines.push(l)) };
};

describe('the Powertools logger', () => {
  it('writes one JSON object a line with the keys of the logger, its children and the call', () => {
    const { lines, log } = collect();
    log.child({ type: 'T' }).child({ farm: 'f1' }).info('done', { n: 2 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'INFO', message: 'done', endpoint: '/api/setting/profile', type: 'T', farm: 'f1', n: 2 });
  });

  it('keeps below its level quiet', () => {
    const { lines, log } = collect('error');
    log.info('not shown');
    log.warn('not shown either');
    log.error('shown');
    expect(lines.map((l) => (JSON.parse(l) as { message: string }).message)).toEqual(['shown']);
  });

  it('puts the request id, cold start and function name on the lines of every part, children made before the invocation included', async () => {
    const { lines, log } = collect();
    const part = log.child({ part: 'alerts' });
    await observe(log, async () => part.info('in the invocation'))(undefined, context);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ function_request_id: 'req-7', function_name: 'vatman-api-user', part: 'alerts' });
    expect(JSON.parse(lines[0] as string)).toHaveProperty('cold_start');
  });

  it('serialises an error with its message and stack', () => {
    const { lines, log } = collect();
    log.error('failed', { err: new Error('table missing') });
    expect(JSON.parse(lines[0] as string)).toMatchObject({ err: { name: 'Error', message: 'table missing', stack: expect.stringContaining('table missing') as unknown } });
  });
});

describe('what a log line never shows', () => {
  it('redacts secret keys whatever their value, and tokens, emails and phone numbers in any string', () => {
    expect(redact('email', 'x')).toBe(REDACTED);
    expect(redact('accessToken', 'abc')).toBe(REDACTED);
    expect(redact('phone_number', 12)).toBe(REDACTED);
    expect(redact('note', `call ${PHONE} or mail ${EMAIL}, token ${TOKEN}`)).toBe(`call ${REDACTED} or mail ${REDACTED}, token ${REDACTED}`);
    expect(redact('detail', 'Bearer abc.def')).toBe(`Bearer ${REDACTED}`);
    // What is not personal stays: alert codes, times with an offset, ids.
    expect(redact('code', 105)).toBe(105);
    expect(redact('at', '2026-11-25T10:00:00.000+13:00')).toBe('2026-11-25T10:00:00.000+13:00');
    expect(redact('farm', 'FARM-0042')).toBe('FARM-0042');
  });

  it("an action logging its input, and failing with the address in its error, writes the caller's sub and the request id but no email, phone or token", async () => {
    const { lines, log } = collect();
    const input = z.object({ type: z.literal('EDIT'), email: z.string(), phone: z.string(), note: z.string(), verification: z.string() });
    const edit = serve(contract({ path: '/api/setting/profile', type: 'EDIT', input, answer: z.unknown(), access: access.self }), [], async (fields, ctx) => {
      ctx.log.info('profile edit asked', { input: fields });
      throw new Error(`Cognito refused ${fields.email} (${fields.phone})`);
    });
    const handler = http(dispatch({ auth: 'jwt', actions: [edit], ports: {} as Ports, log }), log, undefined, [injectLambdaContext(log.powertools)]);
    const body = new URLSearchParams({ type: 'EDIT', email: EMAIL, phone: PHONE, note: `text me on ${PHONE.replaceAll(' ', '')} or ${EMAIL}`, verification: '123456' }).toString();
    const event = {
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${TOKEN}` },
      requestContext: { authorizer: { jwt: { claims: { sub: 'user-sub-1', 'cognito:groups': '[]', email: EMAIL, phone_number: PHONE } } } },
      body,
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;
    const res = (await handler(event, context)) as { statusCode: number };
    expect(res.statusCode).toBe(500);
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain('"user":"user-sub-1"');
    expect(text).toContain('"function_request_id":"req-7"');
    for (const secret of [EMAIL, PHONE, PHONE.replaceAll(' ', ''), TOKEN, '123456']) expect(text).not.toContain(secret);
  });
});
