import { timingSafeEqual } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { ORIGIN_HEADER } from '../ports/function-settings';
import { ForbiddenError } from './errors';


const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Only requests that came through the API's CloudFront distribution, where the WAF web ACL limits
 * each IP, are served: CloudFront adds the secret header, and a request to the API's own
 * execute-api address, which would skip the WAF, lacks it and gets 403 before its body is read.
 * Without a secret (the local stack, which has no CloudFront) nothing is checked; the stack always
 * sets one (`ORIGIN_VERIFY`, test/infra/vat-man-stack.test.ts).
 */
export const originCheck = (secret: string | undefined): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => ({
  before: (request) => {
    if (!cameThroughEdge(request.event.headers, secret)) throw new ForbiddenError();
  },
});

/** Whether a request carries the edge's secret header (always true without a secret: the local stack). Also the live socket's handshake check. */
export const cameThroughEdge = (headers: Readonly<Record<string, string | undefined>> | null | undefined, secret: string | undefined): boolean => {
  if (!secret) return true;
  // The HTTP API lower-cases header names; the WebSocket API passes them as they came.
  const name = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === ORIGIN_HEADER);
  const given = name ? headers?.[name] : undefined;
  return !!given && same(given, secret);
};
