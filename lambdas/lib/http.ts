import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { compressResponse } from './compression';
import { AppError } from './errors';
import type { Logger } from './logger';
import { multipartBody } from './multipart';
import { originCheck } from './origin-check';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

const respond = (statusCode: number, body: unknown): APIGatewayProxyResultV2 => ({
  statusCode,
  headers: JSON_HEADERS,
  body: JSON.stringify(body),
});

const statusOf = (err: unknown): number | undefined => {
  const s = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof s === 'number' ? s : undefined;
};

/**
 * The one place errors become HTTP (spec §8). Domain errors keep their status and message;
 * a body the parsers cannot read is a 422; anything else is a 500 with a generic body and the
 * details in the log only.
 */
const toHttpError = (err: unknown, log: Logger): APIGatewayProxyResultV2 => {
  if (err instanceof AppError) {
    if (err.status >= 500) log.error('request failed', { err });
    return respond(err.status, { message: err.messages });
  }
  // @middy/http-*-body-parser answer 415 for a malformed body: the spec's status for bad input is 422.
  if (statusOf(err) === 415) return respond(422, { message: 'The request body could not be read.' });
  log.error('unexpected error', { err });
  return respond(500, { message: 'Server Error!' });
};

const compress = (request: { event: APIGatewayProxyEventV2; response: APIGatewayProxyResultV2 | null }): void => {
  if (request.response) request.response = compressResponse(request.response, request.event.headers?.['accept-encoding']);
};

/**
 * The middy stack every API Lambda shares: header normalising, JSON and form bodies (both
 * accepted, spec §7), multipart forms (the farm settings upload), error mapping, and compression
 * (brotli or gzip per Accept-Encoding, lambdas/lib/compression.ts). `handle` returns the action's
 * answer; it is sent as JSON with status 200.
 */
export const http = (
  handle: (event: APIGatewayProxyEventV2) => Promise<unknown>,
  log: Logger,
  /** The CloudFront origin secret (lambdas/lib/origin-check.ts); none locally. */
  originSecret?: string,
  /**
   * Powertools' middlewares (lambdas/lib/api-handler.ts): first, so the request id is on every
   * line and the metrics flush and the trace closes after everything else, an error's answer included.
   */
  observability: readonly middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2>[] = [],
) =>
  middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>()
    .use([...observability])
    // First in the stack, so its `after` and `onError` run last: on the answer, and on the error's mapping below.
    .use({
      after: compress,
      onError: compress,
    })
    .use(httpHeaderNormalizer())
    .use(originCheck(originSecret))
    .use(multipartBody())
    .use(httpJsonBodyParser({ disableContentTypeError: true }))
    .use(httpUrlencodeBodyParser({ disableContentTypeError: true }))
    .use({
      onError: (request) => {
        request.response = toHttpError(request.error, log);
      },
    })

    .handler(async (event) => respond(200, await handle(event)));
