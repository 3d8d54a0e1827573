import type { Context } from 'aws-lambda';
import type { FunctionLogger } from './logger';
import { metrics } from './metrics';

/** The part of Powertools' Tracer the by-hand capture uses (lambdas/lib/tracing.ts `tracer`). */
interface HandlerTracer {
  isTracingEnabled(): boolean;
  getSegment(): { addNewSubsegment(name: string): { close(): void } } | undefined;
  setSegment(segment: never): void;
  annotateColdStart(): void;
  addServiceNameAnnotation(): void;
  addErrorAsMetadata(error: Error): void;
}

const traced = async <R>(tracer: HandlerTracer, run: () => Promise<R>): Promise<R> => {
  const segment = tracer.getSegment();
  const subsegment = segment?.addNewSubsegment(`## ${process.env._HANDLER ?? 'handler'}`);
  if (subsegment) tracer.setSegment(subsegment as never);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  try {
    return await run();
  } catch (err) {
    if (err instanceof Error) tracer.addErrorAsMetadata(err);
    throw err;
  } finally {
    subsegment?.close();
    if (segment) tracer.setSegment(segment as never);
  }
};

/**
 * What the API's middy stack gets from Powertools' middlewares (injectLambdaContext, logMetrics,
 * captureLambdaHandler), by hand for the handlers that are not middy: the invocation's request id,
 * cold start and function name on the function's log lines, its metrics flushed when it ends
 * (thrown or not), and with a tracer, the invocation as a subsegment. Without a Lambda context
 * (the local stack, tests) the handler runs as it is.
 */
export const observe =
  <E, R>(log: FunctionLogger, handler: (event: E) => Promise<R>, tracer?: HandlerTracer) =>
  async (event: E, context?: Context): Promise<R> => {
    if (context?.awsRequestId) log.powertools.addContext(context);
    try {
      return tracer?.isTracingEnabled() ? await traced(tracer, () => handler(event)) : await handler(event);
    } finally {
      metrics.publishStoredMetrics();
    }
  };
