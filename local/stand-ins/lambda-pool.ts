import { Worker } from 'node:worker_threads';

/**
 * Lambda containers for an asynchronously invoked function (the ingest): worker threads, each with
 * its own instance of the handler module, as separate containers would have. An event goes to the
 * container its key hashes to, so one device's messages stay in one container (as they mostly do
 * in AWS); the rule runner's retries and error reporting stay in the caller.
 */
interface LambdaPool {
  invoke(event: unknown, key: string): Promise<unknown>;
  /** An event to one container by number (mod the pool's size): a stream shard's consumer. */
  invokeOn(container: number, event: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

const hash = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i += 1) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};

export const startLambdaPool = async (options: {
  /** The handler module's file URL or path; it exports `handler`. */
  readonly modulePath: string;
  /** Containers; @default 1 */
  readonly size?: number;
  /** The function's environment (a copy: the container sees it as it was at its cold start). */
  readonly env: NodeJS.ProcessEnv;
  /**
   * V8's semi-space in MB, as `--max-semi-space-size` gives it to the function in AWS (a worker
   * thread takes its young generation instead: three semi-spaces); V8's default when absent.
   */
  readonly semiSpaceMb?: number;
}): Promise<LambdaPool> => {
  // A worker thread does not inherit tsx's loader: a two-line bootstrap registers it, then loads
  // the TypeScript entry.
  const entry = new URL('./lambda-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const workers = await Promise.all(
    Array.from({ length: options.size ?? 1 }, async () => {
      const resourceLimits = options.semiSpaceMb ? { resourceLimits: { maxYoungGenerationSizeMb: 3 * options.semiSpaceMb } } : {};
      const worker = new Worker(bootstrap, { eval: true, ...resourceLimits, workerData: { modulePath: options.modulePath }, env: { ...options.env } });
      await new Promise<void>((resolve, reject) => {
        worker.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(`lambda container: ${JSON.stringify(m)}`))));
        worker.once('error', reject);
      });
      worker.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: { name: string; message: string; stack?: string } }) => {
        const w = waiting.get(m.id);
        if (!w) return;
        waiting.delete(m.id);
        if (m.ok) w.resolve(m.result);
        else w.reject(Object.assign(new Error(m.error?.message), { name: m.error?.name ?? 'Error', stack: m.error?.stack }));
      });
      worker.on('error', (err) => {
        for (const [id, w] of waiting) {
          waiting.delete(id);
          w.reject(err);
        }
      });
      return worker;
    }),
  );
  const invokeOn = (container: number, event: unknown) =>
    new Promise((resolve, reject) => {
      const id = (nextId += 1);
      waiting.set(id, { resolve, reject });
      (workers[container % workers.length] as Worker).postMessage({ id, event });
    });
  return {
    invoke: (event, key) => invokeOn(hash(key), event),
    invokeOn,
    stop: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
};
