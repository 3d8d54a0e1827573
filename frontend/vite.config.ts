import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Paths relative to this file, so `vite --config frontend/vite.config.ts` works from any directory. */
const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  plugins: [react()],
  resolve: {
    alias: { '@shared': here('../shared') },
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: true,
  },
});
