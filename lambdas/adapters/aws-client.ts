/**
 * Every AWS SDK client an adapter builds passes through `instrumented`, so a traced function's
 * Tracer (lambdas/lib/tracing.ts: captureAWSv3Client) sees each DynamoDB, Cognito, SNS, IoT, SSM
 * and API Gateway call as a subsegment. The composition root sets the instrument once, before it
 * builds a port (portsFromEnv's `instrumentClient`); a function without one (the scheduled jobs,
 * the triggers, the local stack's and the tests' untraced runs) gets its clients as they are, and
 * no X-Ray SDK in its bundle.
 */
export type ClientInstrument = <C extends object>(client: C) => C;

let instrument: ClientInstrument | undefined;

export const setClientInstrument = (fn: ClientInstrument | undefined): void => {
  instrument = fn;
};

export const instrumented = <C extends object>(client: C): C => (instrument ? instrument(client) : client);
