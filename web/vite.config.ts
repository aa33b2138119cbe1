/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath, URL } from 'node:url';
import { firstScreenPreload } from './vite/first-screen-preload.ts';

// The api (scripts/run) serves web/dist; in development `npm run dev` proxies the
// calls to a running api so the app is same-origin either way.
const api = process.env.API_URL ?? 'http://127.0.0.1:8080';
const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    // The splash paints first, then the app loads (vite/first-screen-preload.ts),
    // with the first screen's chunks: a signed-in borrower's home, or the sign-in screen.
    firstScreenPreload(
      { '/': file('./src/features/loan/home-screen.tsx'), '/login': file('./src/features/auth/login-screen.tsx') },
      '/login',
    ),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // react-router 7's package exports name only its development build (with
      // its warnings, remix-run/react-router#12437 and #14102); the build takes
      // the production one. Safe here: the app is the only importer of
      // 'react-router' (no react-router-dom, no server rendering), so there is
      // one copy of its contexts. Dev server and tests keep the warnings.
      ...(command === 'build'
        ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) }]
        : []),
      // antd-mobile's fallback render, dead code once lib/antd-react19.ts sets
      // React 19's (see src/lib/rc-util-render-stub.ts); keeps it off the first screen.
      { find: /^rc-util\/lib\/React\/render$/, replacement: fileURLToPath(new URL('./src/lib/rc-util-render-stub.ts', import.meta.url)) },
    ],
  },
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
    include: ['src/**/*.test.{ts,tsx}', 'vite/**/*.test.ts'],
    css: false,
  },
}));
