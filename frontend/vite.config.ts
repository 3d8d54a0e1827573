import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routeBudgets } from './build/route-budget.ts';

/** Paths relative to this file, so `vite --config frontend/vite.config.ts` works from any directory. */
const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  plugins: [
    react(),
    // The milk dashboard's first screen (issue 5): the shells and the cards within 250 kB gzipped; chart.js loads after.
    routeBudgets([
      {
        route: '/dts/dashboard',
        lazyModules: [
          here('src/features/shell/components/farmer-shell.tsx'),
          here('src/features/shell/components/farm-tabs.tsx'),
          here('src/features/milk-dashboard/components/milk-dashboard-page.tsx'),
        ],
        maxGzipBytes: 250_000,
      },
    ]),
  ],
  resolve: {
    alias: { '@shared': here('../shared') },
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
  },
});
