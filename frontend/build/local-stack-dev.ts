import type { Plugin } from 'vite';

/**
 * `npm run dev:web`: Vite's dev server (hot reload) in front of a running `npm start`. `/api/*`
 * goes to the local web stand-in (which passes it to the local API Gateway, as the distribution
 * does), and `/config.json` is the stand-in's with the API's address made this server's own origin:
 * the app calls the API on the site's origin, so there is no cross-origin call (the API sends no CORS).
 * Without a running stack the config answers 502 and the app shows its start-up problem.
 */
export const localStackDev = (webOrigin: string): Plugin => ({
  name: 'vatman-local-stack-dev',
  apply: 'serve',
  config: () => ({ server: { proxy: { '/api': { target: webOrigin } } } }),
  configureServer(server) {
    server.middlewares.use('/config.json', (req, res) => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
      };
      fetch(`${webOrigin}/config.json`)
        .then(async (answer) => {
          if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
          const config = (await answer.json()) as Record<string, unknown>;
          reply(200, { ...config, apiUrl: `http://${req.headers.host ?? 'localhost'}` });
        })
        .catch((err: unknown) => reply(502, { message: `No local stack at ${webOrigin} (${err instanceof Error ? err.message : String(err)}): run npm start first.` }));
    });
  },
});
