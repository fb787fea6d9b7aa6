// The dashboard is served by the Tolem server under /dashboard/ (src/http/dashboard/routes.ts): a single
// page app built once into dist/. Charts go to their own chunk, loaded by the pages that draw them. Every
// text file gets a brotli and a gzip copy beside it (precompress.ts).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.ts';

// The server's routes besides the dashboard's own, which `npx vite` passes on to it.
const PROXIED = ['/auth', '/me', '/v2', '/v1', '/partner', '/admin', '/onboarding', '/checkout'];

export default defineConfig({
  base: '/dashboard/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npx vite` here during development, with the server on :8080.
    proxy: Object.fromEntries(PROXIED.map((p) => [p, 'http://127.0.0.1:8080'])),
  },
});
