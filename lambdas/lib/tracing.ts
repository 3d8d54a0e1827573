import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './metrics';

/**
 * Powertools' Tracer for the functions traced in X-Ray (the API's and the ingest: tracing Active
 * in cdk/lib/constructs/vat-man-function.ts). Imported only by them, inside their lazily loaded
 * modules, so the X-Ray SDK is in no other bundle and costs no module init. It traces only inside
 * Lambda: Powertools turns it off where AWS_EXECUTION_ENV is unset (the local stack, the tests) or
 * POWERTOOLS_TRACE_ENABLED is false, and then captureAWSv3Client hands clients back untouched.
 */
export const tracer = new Tracer({ serviceName: SERVICE_NAME });

/** For portsFromEnv's `instrumentClient`: each AWS SDK client's calls as subsegments. */
export const traceClient = <C extends object>(client: C): C => tracer.captureAWSv3Client(client);
