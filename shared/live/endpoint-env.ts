/**
 * The variable naming the live API's management endpoint
 * (https://<api-id>.execute-api.<region>.amazonaws.com/<stage>; CDK sets it on the functions that
 * post). Its own module so the ingest's entry reads it without loading zod or the SDK.
 */
export const LIVE_ENDPOINT_ENV = 'LIVE_CONNECTIONS_ENDPOINT';
