import { createServer } from 'node:net';
import { PORTS } from '../../local/ports';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });

/** Points every local-stack port variable at a free port, so tests never clash with `npm start`. */
export const useFreePorts = async (env: NodeJS.ProcessEnv = process.env) => {
  for (const { env: name } of Object.values(PORTS)) env[name] = String(await freePort());
};
