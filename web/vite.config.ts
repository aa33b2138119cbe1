/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath, URL } from 'node:url';

// The api (scripts/run) serves web/dist; in development `npm run dev` proxies the
// calls to a running api so the app is same-origin either way.
const api = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: { '/jackey': api, '/admin/api': api, '/files': api, '/pay': api },
  },
  // The manifest lets scripts/first-screen-size.mjs measure what the first screen loads.
  build: { target: 'es2020', chunkSizeWarningLimit: 600, manifest: true },
  test: {
    environment: 'jsdom',
    environmentOptions: { jsdom: { url: 'http://localhost/' } },
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
