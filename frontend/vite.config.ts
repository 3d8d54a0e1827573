import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routeBudgets } from './build/route-budget.ts';
import { ROUTE_BUDGETS } from './build/route-budgets.ts';
import { serviceWorker } from './build/service-worker.ts';
import { localStackDev } from './build/local-stack-dev.ts';
import { portOf } from '../local/ports.ts';

/** Paths relative to this file, so `vite --config frontend/vite.config.ts` works from any directory. */
const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  plugins: [
    react(),
    // The routes' first screens within their budgets (build/route-budgets.ts); chart.js loads after.
    routeBudgets(ROUTE_BUDGETS),
    // The offline app (issue 26): sw.js caches the shell and the dashboard's last answers.
    serviceWorker(),
    // `npm run dev:web` only: the API and config.json of a running `npm start`.
    localStackDev(`http://localhost:${portOf('web')}`),
  ],
  resolve: {
    alias: { '@shared': here('../shared') },
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
    // Every browser the app supports preloads modules itself; the polyfill only weighed on each first load (issue 14).
    modulePreload: { polyfill: false },
    // The largest chunk is the compliance PDF's Unicode fonts and font engine (fontkit, about 860 kB),
    // loaded only to print a record with macrons; what pages load is held by the route budgets.
    chunkSizeWarningLimit: 900,
  },
});
