import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routeBudgets } from './build/route-budget.ts';
import { COMPLIANCE_FIRST_LOAD_MODULES, DASHBOARD_FIRST_LOAD_MODULES, DASHBOARD_SCREEN_MODULES, DEVICES_FIRST_LOAD_MODULES, LOGIN_FIRST_LOAD_MODULES, ROUTE_BUDGETS } from './build/route-budgets.ts';
import { serviceWorker } from './build/service-worker.ts';
import { firstScreenGroup } from './build/first-screen-chunk.ts';
import { firstScreenPreload } from './build/module-preload.ts';
import { localStackDev } from './build/local-stack-dev.ts';
import { tcpPortOf } from '../local/tcp-ports.ts';

/** Paths relative to this file, so `vite --config frontend/vite.config.ts` works from any directory. */
const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

const MAIN = here('src/main.tsx');

export default defineConfig({
  root: here('.'),
  plugins: [
    react(),
    // The routes' first screens within their budgets (build/route-budgets.ts); chart.js loads after.
    routeBudgets(ROUTE_BUDGETS),
    // The milk dashboard's code, start-up's early calls' and Amplify's session (lib/auth-session.ts,
    // which the early calls need for the token) download beside the entry when the page opens there;
    // so do the compliance screen's and the device list's at theirs, and the sign-in form's at
    // /dts/login (otherwise each waits for the entry to run and the router to ask: a second round
    // trip before the first paint). On the sign-in page Amplify loads after the first paint,
    // outside its initial JavaScript (the route budget's count); preloaded, it would be 23 kB of it.
    firstScreenPreload([
      { path: '/dts/dashboard', modules: DASHBOARD_FIRST_LOAD_MODULES },
      { path: '/dts/compliance', modules: COMPLIANCE_FIRST_LOAD_MODULES },
      { path: '/dts/devices', modules: DEVICES_FIRST_LOAD_MODULES },
      { path: '/dts/login', modules: LOGIN_FIRST_LOAD_MODULES },
    ]),
    // The offline app: sw.js caches the shell and the dashboard's last answers.
    serviceWorker(),
    // `npm run dev:web` only: the API and config.json of a running `npm start`.
    localStackDev(`http://localhost:${tcpPortOf('web')}`),
  ],
  resolve: {
    alias: { '@shared': here('../shared') },
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
    // Every browser the app supports preloads modules itself; the polyfill only weighed on each first load.
    modulePreload: { polyfill: false },
    // The largest chunk is the compliance PDF's Unicode fonts and font engine (fontkit, about 860 kB),
    // loaded only to print a record with macrons, and the API reference's renderer (Redoc, about
    // 1.2 MB, only on /dts/api); what pages load is held by the route budgets.
    chunkSizeWarningLimit: 1_300,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Start-up's early API calls: a small chunk that needs neither the screen's code
            // nor zod, so the calls go out while those download. The farmer chunk imports its modules.
            { ...firstScreenGroup({ name: 'early-calls', entry: MAIN, roots: [here('src/features/shell/api/early-calls.ts')] }), priority: 2 },
            // The farmer shell and the milk dashboard, zod and the contracts included, in one chunk rather than 30-odd.
            { ...firstScreenGroup({ name: 'farmer', entry: MAIN, roots: DASHBOARD_SCREEN_MODULES }), priority: 1 },
            // React and React DOM (about 65 kB gzipped) in one chunk beside the entry, not in it: two files
            // download side by side (index.html preloads it); React and its JSX runtime no longer two more.
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
