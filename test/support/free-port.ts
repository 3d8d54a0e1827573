import { createServer } from 'node:net';
import { TCP_PORTS } from '../../local/tcp-ports';

/**
 * Ports for test stacks come from below Linux's ephemeral range (32768-60999): a port the kernel
 * hands out for `listen(0)` may be handed again to an outgoing connection (the SDK's, the
 * browser's) in the seconds before the stand-in listens on it, and its listen then fails with
 * EADDRINUSE. Below that range only a listener can hold a port, and the probe sees it.
 */
const LOW = 20_000;
const HIGH = 32_000;

const probe = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

const taken = new Set<number>();

export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    // Not twice from this process: a stack that has not started yet has not taken its ports.
    if (taken.has(port)) continue;
    if (await probe(port)) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} after 200 tries`);
};

/** Points every local-stack port variable at a free port, so tests never clash with `npm start`. */
export const useFreePorts = async (env: NodeJS.ProcessEnv = process.env) => {
  for (const { env: name } of Object.values(TCP_PORTS)) env[name] = String(await freePort());
};
