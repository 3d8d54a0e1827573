/**
 * One Lambda "container" of the local stack: a worker thread that loads a handler module once
 * (its cold start reads the environment it was given) and runs the events posted to it.
 */
import '../quiet-warnings';
import { parentPort, workerData } from 'node:worker_threads';

interface Request {
  readonly id: number;
  readonly event: unknown;
}

const port = parentPort;
if (!port) throw new Error('lambda-worker.ts runs as a worker thread');
const { modulePath } = workerData as { modulePath: string };
const { handler } = (await import(modulePath)) as { handler: (event: unknown) => Promise<unknown> };

port.on('message', ({ id, event }: Request) => {
  handler(event).then(
    (result) => port.postMessage({ id, ok: true, result }),
    (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } });
    },
  );
});
port.postMessage('ready');
